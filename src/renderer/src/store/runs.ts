// Runs and their threads: the recent runs, one run's transcript, cancel; live updates upsert.
import type { Message, Run } from '../../../shared/contract';
import type { Slice } from '.';

export interface RunsSlice {
  runs: Run[];
  /** Transcripts by thread id, as far as loaded. */
  threads: Record<string, Message[]>;
  loadRuns: () => Promise<void>;
  loadRun: (id: string) => Promise<void>;
  loadThread: (threadId: string) => Promise<void>;
  cancelRun: (id: string) => Promise<void>;
  sendPrompt: (instanceId: string, prompt: string) => Promise<Run>;
  upsertRun: (run: Run) => void;
}

const progress = (run: Run) => (run.status === 'queued' ? 0 : run.status === 'running' ? 1 : 2);

export const runsSlice: Slice<RunsSlice> = (set, get) => ({
  runs: [],
  threads: {},
  async loadRuns() {
    const { runs } = await get().client.call('runs.list', { query: { limit: 100 } });
    set({ runs });
  },
  async loadRun(id) {
    get().upsertRun((await get().client.call('runs.get', { params: { id } })).run);
  },
  async loadThread(threadId) {
    const messages: Message[] = [];
    for (let after = 0; ; ) {
      const { thread } = await get().client.call('threads.get', { params: { id: threadId }, query: { after, limit: 1000 } });
      messages.push(...thread.messages);
      if (!thread.hasMore || thread.messages.length === 0) break;
      after = thread.messages.at(-1)!.seq;
    }
    set({ threads: { ...get().threads, [threadId]: messages } });
  },
  async cancelRun(id) {
    const { run } = await get().client.call('runs.cancel', { params: { id } });
    get().upsertRun(run);
  },
  async sendPrompt(instanceId, prompt) {
    const { run } = await get().client.call('runs.create', { body: { instanceId, prompt } });
    get().upsertRun(run);
    return run;
  },
  upsertRun(run) {
    // Whichever of an answer and a live event arrives last, the run never goes back a step.
    const known = get().runs.find((each) => each.id === run.id);
    if (known && progress(known) > progress(run)) return;
    const others = get().runs.filter((each) => each.id !== run.id);
    set({ runs: [run, ...others].sort((a, b) => b.id.localeCompare(a.id)).slice(0, 500) });
  },
});
