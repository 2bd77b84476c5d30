// threads and messages tables: the chat history that automations, webhooks and chats own.
import type Database from 'better-sqlite3';
import type { Message, Thread } from '../../../../shared/contract';

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
  const page = db.prepare<[string, number, number], MessageRow>(
    'SELECT seq, run_id, role, content, created_at FROM messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?',
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
        messages: rows.slice(0, limit).map((m) => ({ seq: m.seq, runId: m.run_id, role: m.role, content: m.content, createdAt: m.created_at })),
        hasMore: rows.length > limit,
      };
    },
    delete: (id: string): void => void removeThread.run(id),
    addMessage: (message: NewMessage): void => void insertMessage.run(message),
  };
}

export type ThreadsRepository = ReturnType<typeof createThreadsRepository>;
