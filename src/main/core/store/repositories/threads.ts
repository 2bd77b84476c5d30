// threads and messages tables: the chat history that automations, webhooks and chats own; a run's
// own messages; threads listed by their last activity.
import type Database from 'better-sqlite3';
import type { Message, RunStatus, Thread, ThreadSummary } from '../../../../shared/contract';

interface ThreadRow {
  id: string;
  owner_type: Thread['ownerType'];
  owner_id: string | null;
  created_at: string;
}

interface MessageRow {
  seq: number;
  run_id: string | null;
  role: Message['role'];
  content: string;
  created_at: string;
}

interface SummaryRow {
  id: string;
  owner_type: Thread['ownerType'];
  owner_id: string | null;
  created_at: string;
  first_prompt: string | null;
  last_activity_at: string;
  run_count: number;
  last_run_status: RunStatus | null;
}

export interface ThreadFilter {
  instanceId?: string | undefined;
  ownerType?: Thread['ownerType'] | undefined;
  limit: number;
}

const toMessage = (m: MessageRow): Message => ({ seq: m.seq, runId: m.run_id, role: m.role, content: m.content, createdAt: m.created_at });

export interface NewMessage {
  threadId: string;
  runId: string | null;
  role: Message['role'];
  content: string;
  createdAt: string;
}

export function createThreadsRepository(db: Database.Database) {
  const insertThread = db.prepare('INSERT INTO threads (id, owner_type, owner_id, created_at) VALUES (?, ?, ?, ?)');
  const getThread = db.prepare<[string], ThreadRow>('SELECT id, owner_type, owner_id, created_at FROM threads WHERE id = ?');
  const removeThread = db.prepare<[string]>('DELETE FROM threads WHERE id = ?');
  const insertMessage = db.prepare(
    'INSERT INTO messages (thread_id, run_id, role, content, created_at) VALUES (@threadId, @runId, @role, @content, @createdAt)',
  );
  const getSession = db.prepare<[string, string, string], { session_id: string }>(
    'SELECT session_id FROM thread_sessions WHERE thread_id = ? AND instance_id = ? AND agent = ?',
  );
  const setSession = db.prepare<[string, string, string, string, string]>(
    `INSERT INTO thread_sessions (thread_id, instance_id, agent, session_id, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (thread_id, instance_id) DO UPDATE SET agent = excluded.agent, session_id = excluded.session_id, updated_at = excluded.updated_at`,
  );
  const forgetSession = db.prepare<[string, string]>('DELETE FROM thread_sessions WHERE thread_id = ? AND instance_id = ?');
  // Newest first, so that a budget keeps the latest turns.
  const turnsBefore = db.prepare<[string, string], { role: 'user' | 'assistant'; content: string }>(
    `SELECT role, content FROM messages WHERE thread_id = ? AND role IN ('user', 'assistant') AND (run_id IS NULL OR run_id <> ?)
     ORDER BY seq DESC`,
  );
  const page = db.prepare<[string, number, number], MessageRow>(
    'SELECT seq, run_id, role, content, created_at FROM messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );

  const lastAnswer = db.prepare<[string], { content: string }>("SELECT content FROM messages WHERE run_id = ? AND role = 'assistant' ORDER BY seq DESC LIMIT 1");
  const runPage = db.prepare<[string, number, number], MessageRow>(
    'SELECT seq, run_id, role, content, created_at FROM messages WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
  );
  // The newest activity of a thread: its last message (by seq, from the index) or its last run, or its creation.
  const summaries = db.prepare<{ instanceId: string | null; ownerType: string | null; limit: number }, SummaryRow>(
    `SELECT id, owner_type, owner_id, created_at, first_prompt, run_count, last_run_status,
            max(created_at, coalesce(last_message_at, ''), coalesce(last_run_at, '')) AS last_activity_at
     FROM (
       SELECT t.id, t.owner_type, t.owner_id, t.created_at,
              (SELECT r.prompt FROM runs r WHERE r.thread_id = t.id ORDER BY r.created_at, r.id LIMIT 1) AS first_prompt,
              (SELECT count(*) FROM runs r WHERE r.thread_id = t.id) AS run_count,
              (SELECT r.status FROM runs r WHERE r.thread_id = t.id ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS last_run_status,
              (SELECT m.created_at FROM messages m WHERE m.thread_id = t.id ORDER BY m.seq DESC LIMIT 1) AS last_message_at,
              (SELECT max(coalesce(r.finished_at, r.started_at, r.created_at)) FROM runs r WHERE r.thread_id = t.id) AS last_run_at
       FROM threads t
       WHERE (@ownerType IS NULL OR t.owner_type = @ownerType)
         AND (@instanceId IS NULL
              OR (t.owner_type = 'chat' AND t.owner_id = @instanceId)
              OR EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.id AND r.instance_id = @instanceId))
     )
     ORDER BY last_activity_at DESC, id DESC LIMIT @limit`,
  );

  return {
    insert(id: string, ownerType: Thread['ownerType'], ownerId: string | null, createdAt: string): void {
      insertThread.run(id, ownerType, ownerId, createdAt);
    },
    /** The thread with up to `limit` messages after `after`. */
    get(id: string, after: number, limit: number): Thread | undefined {
      const row = getThread.get(id);
      if (!row) return undefined;
      const rows = page.all(id, after, limit + 1);
      return {
        id: row.id,
        ownerType: row.owner_type,
        ownerId: row.owner_id,
        createdAt: row.created_at,
        messages: rows.slice(0, limit).map(toMessage),
        hasMore: rows.length > limit,
      };
    },
    /** Up to `limit` of one run's messages after `after`. */
    runMessages(runId: string, after: number, limit: number): { messages: Message[]; hasMore: boolean } {
      const rows = runPage.all(runId, after, limit + 1);
      return { messages: rows.slice(0, limit).map(toMessage), hasMore: rows.length > limit };
    },
    /** A run's final answer: its last assistant message, or undefined when it said none. */
    lastAnswer: (runId: string): string | undefined => lastAnswer.get(runId)?.content,
    /** Threads, the most recently active first, with their first prompt and last activity. */
    list(filter: ThreadFilter): ThreadSummary[] {
      return summaries.all({ instanceId: filter.instanceId ?? null, ownerType: filter.ownerType ?? null, limit: filter.limit }).map((row) => ({
        id: row.id,
        ownerType: row.owner_type,
        ownerId: row.owner_id,
        createdAt: row.created_at,
        firstPrompt: row.first_prompt,
        lastActivityAt: row.last_activity_at,
        runCount: row.run_count,
        lastRunStatus: row.last_run_status,
      }));
    },
    delete: (id: string): void => void removeThread.run(id),
    addMessage: (message: NewMessage): void => void insertMessage.run(message),
    /** The session of `agent` (a preset such as claude-code) that continues this thread on this instance. */
    session: (threadId: string, instanceId: string, agent: string): string | undefined => getSession.get(threadId, instanceId, agent)?.session_id,
    setSession: (threadId: string, instanceId: string, agent: string, sessionId: string, at: string): void =>
      void setSession.run(threadId, instanceId, agent, sessionId, at),
    forgetSession: (threadId: string, instanceId: string): void => void forgetSession.run(threadId, instanceId),
    /**
     * The thread's user and assistant turns before run `runId`, oldest first, as many of the newest
     * as fit in `budgetChars` (the oldest are dropped first).
     */
    turnsBefore(threadId: string, runId: string, budgetChars: number): { role: 'user' | 'assistant'; content: string }[] {
      const kept: { role: 'user' | 'assistant'; content: string }[] = [];
      let used = 0;
      for (const turn of turnsBefore.iterate(threadId, runId)) {
        used += turn.content.length;
        if (used > budgetChars) break;
        kept.push(turn);
      }
      return kept.reverse();
    },
  };
}

export type ThreadsRepository = ReturnType<typeof createThreadsRepository>;
