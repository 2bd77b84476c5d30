// Runs: queuing one now (see run-queue.ts) and reading them and their threads back.
import type { z } from 'zod';
import type { NewRun, Run, RunListQuery, Thread, ThreadQuery } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import { readSettings } from '../settings';
import type { ServiceContext } from './context';
import { type RunRequest, enqueueRun } from './run-queue';

export function createRunsService(context: ServiceContext, runsQueued: () => void) {
  const { store } = context;

  /**
   * 503 queue_full while more than `runner.maxQueued` runs wait (default 1,000; null for no
   * limit): the sender should retry; nothing accepted is dropped.
   */
  function assertRoom(): void {
    const { maxQueued } = readSettings(store).runner;
    if (maxQueued === null) return;
    if (store.runs.count('queued', maxQueued + 1) > maxQueued) {
      throw new AppError('queue_full', `More than ${maxQueued} runs are waiting; try again shortly.`, { headers: { 'retry-after': '30' } });
    }
  }

  return {
    assertRoom,

    /** Queues a run now; the caller owns the transaction. */
    enqueue: (request: RunRequest, at: Date = context.now()): Run => enqueueRun(store, request, at),

    /** A prompt for an instance, from the API or another agent: a new chat thread, or one it continues. */
    create(input: NewRun): Run {
      assertRoom();
      const at = context.now();
      const run = store.transaction(() => {
        const instance = store.instances.get(input.instanceId);
        if (!instance) throw new AppError('invalid_field', `No instance ${input.instanceId}.`, { field: 'instanceId' });
        let threadId = input.threadId;
        if (threadId === undefined) {
          threadId = newId('thr', at.getTime());
          store.threads.insert(threadId, 'chat', instance.id, at.toISOString());
        } else if (store.threads.get(threadId, 0, 1)?.ownerType !== 'chat') {
          throw new AppError('invalid_field', `No chat thread ${threadId}: a prompt continues a chat, not an automation's or a webhook's thread.`, { field: 'threadId' });
        }
        return enqueueRun(store, { instanceId: instance.id, threadId, source: 'api', sourceId: null, prompt: input.prompt }, at);
      });
      runsQueued();
      return run;
    },

    get(id: string): Run {
      const run = store.runs.get(id);
      if (!run) throw new AppError('not_found', `No run ${id}.`);
      return run;
    },

    list: (query: z.output<typeof RunListQuery>): Run[] => store.runs.list(query),

    thread(id: string, query: z.output<typeof ThreadQuery>): Thread {
      const thread = store.threads.get(id, query.after, query.limit);
      if (!thread) throw new AppError('not_found', `No thread ${id}.`);
      return thread;
    },
  };
}

export type RunsService = ReturnType<typeof createRunsService>;
