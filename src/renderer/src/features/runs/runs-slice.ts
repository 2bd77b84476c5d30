// Runs and their threads: the recent runs, a thread's transcript and one run's own messages (both
// loaded once, then only what is new: `after` the last seq), why a queued run waits, cancel,
// prompts (a new chat or one continued) and re-runs; live updates upsert.
import type { Message, Run, RunQueue } from '../../../../shared/contract';
import type { Slice } from '../../store';
import { runProgress } from '../../../../shared/run-progress';

export interface RunsSlice {
  runs: Run[];
  /** Transcripts by thread id, as far as loaded. */
  threads: Record<string, Message[]>;
  /** One run's messages by run id, as far as loaded. */
  runMessages: Record<string, Message[]>;
  /** Why a queued run waits, by run id, as of its last load. */
  runQueues: Record<string, RunQueue | null>;
  loadRuns: () => Promise<void>;
  loadRun: (id: string) => Promise<void>;
  /** Loads what is new in a thread (all of it the first time). */
  loadThread: (threadId: string) => Promise<void>;
  /** Loads what is new of a run's messages (all of them the first time). */
  loadRunMessages: (runId: string) => Promise<void>;
  /** Something was said in a run: what is loaded of it (its thread, its messages) catches up. */
  runProgressed: (runId: string) => void;
  cancelRun: (id: string) => Promise<void>;
  /** A prompt to an instance: a new chat, or `threadId` continued. */
  sendPrompt: (instanceId: string, prompt: string, threadId?: string) => Promise<Run>;
  /** The same prompt on the same instance again: an automation's run through the automation, any other as a new chat. */
  rerun: (run: Run) => Promise<Run>;
  upsertRun: (run: Run) => void;
}

const pageSize = 1000;

type Page = { messages: Message[]; hasMore: boolean };

export const runsSlice: Slice<RunsSlice> = (set, get) => {
  // One load per key at a time; a request while one is under way runs once more after it, so
  // a burst of live lines costs a fetch or two, each asking only for what is new.
  const loading = new Map<string, Promise<void>>();
  const again = new Set<string>();
  function coalesced(key: string, work: () => Promise<void>): Promise<void> {
    const under = loading.get(key);
    if (under) {
      again.add(key);
      return under;
    }
    const done = (async () => {
      do {
        again.delete(key);
        await work();
      } while (again.has(key));
    })().finally(() => loading.delete(key));
    loading.set(key, done);
    return done;
  }

  /** Pages on from the last known seq; returns only messages not known yet. */
  async function newer(known: Message[] | undefined, page: (after: number) => Promise<Page>): Promise<Message[]> {
    const added: Message[] = [];
    for (let after = known?.at(-1)?.seq ?? 0; ; ) {
      const { messages, hasMore } = await page(after);
      added.push(...messages);
      if (!hasMore || messages.length === 0) return added;
      after = messages.at(-1)!.seq;
    }
  }

  return {
    runs: [],
    threads: {},
    runMessages: {},
    runQueues: {},
    async loadRuns() {
      const { runs } = await get().client.call('runs.list', { query: { limit: 100 } });
      set({ runs });
    },
    async loadRun(id) {
      const { run, queue } = await get().client.call('runs.get', { params: { id } });
      get().upsertRun(run);
      set({ runQueues: { ...get().runQueues, [id]: queue } });
    },
    loadThread(threadId) {
      return coalesced(`thread:${threadId}`, async () => {
        const known = get().threads[threadId];
        const added = await newer(known, async (after) => (await get().client.call('threads.get', { params: { id: threadId }, query: { after, limit: pageSize } })).thread);
        if (known && added.length === 0) return;
        set({ threads: { ...get().threads, [threadId]: [...(known ?? []), ...added] } });
      });
    },
    loadRunMessages(runId) {
      return coalesced(`run:${runId}`, async () => {
        const known = get().runMessages[runId];
        const added = await newer(known, (after) => get().client.call('runs.messages', { params: { id: runId }, query: { after, limit: pageSize } }));
        if (known && added.length === 0) return;
        set({ runMessages: { ...get().runMessages, [runId]: [...(known ?? []), ...added] } });
      });
    },
    runProgressed(runId) {
      const { runs, threads, runMessages, loadThread, loadRunMessages } = get();
      const threadId = runs.find((run) => run.id === runId)?.threadId;
      // Shown, or being loaded for the first time: a line that lands meanwhile must not be missed.
      if (threadId && (threads[threadId] || loading.has(`thread:${threadId}`))) void loadThread(threadId).catch(() => undefined);
      if (runMessages[runId] || loading.has(`run:${runId}`)) void loadRunMessages(runId).catch(() => undefined);
    },
    async cancelRun(id) {
      const { run } = await get().client.call('runs.cancel', { params: { id } });
      get().upsertRun(run);
    },
    async sendPrompt(instanceId, prompt, threadId) {
      // Whatever in the app sends it (Chat, onboarding's first prompt, a re-run), a person wrote it here.
      const { run } = await get().client.call('runs.create', { body: { instanceId, prompt, source: 'chat', ...(threadId ? { threadId } : {}) } });
      get().upsertRun(run);
      return run;
    },
    async rerun(run) {
      const automation = run.source === 'automation' ? get().automations.find((each) => each.id === run.sourceId) : undefined;
      if (automation) return get().runAutomation(automation.id);
      return get().sendPrompt(run.instanceId, run.prompt);
    },
    upsertRun(run) {
      // Whichever of an answer and a live event arrives last, the run never goes back a step.
      const known = get().runs.find((each) => each.id === run.id);
      if (known && runProgress(known) > runProgress(run)) return;
      const others = get().runs.filter((each) => each.id !== run.id);
      set({ runs: [run, ...others].sort((a, b) => b.id.localeCompare(a.id)).slice(0, 500) });
    },
  };
};
