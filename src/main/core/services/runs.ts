// Runs: queuing one now (see run-queue.ts) and reading them and their threads back.
import type { z } from 'zod';
import type { Run, RunListQuery, Thread, ThreadQuery } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { ServiceContext } from './context';
import { type RunRequest, enqueueRun } from './run-queue';

export function createRunsService(context: ServiceContext) {
  const { store } = context;

  return {
    /** Queues a run now; the caller owns the transaction. */
    enqueue: (request: RunRequest, at: Date = context.now()): Run => enqueueRun(store, request, at),

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
