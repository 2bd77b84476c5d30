// Runs: queuing one (the single way a prompt enters the system) and reading them back.
import type { z } from 'zod';
import type { Run, RunListQuery, RunSource, Thread, ThreadQuery } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import type { ServiceContext } from './context';

export interface RunRequest {
  instanceId: string;
  threadId: string;
  source: RunSource;
  sourceId: string | null;
  prompt: string;
  idempotencyKey?: string | null;
}

export function createRunsService(context: ServiceContext) {
  const { store } = context;

  return {
    /**
     * Queues a run: one row, so that a trigger costs one insert. The runner writes the prompt into
     * the thread and the activity log when the agent receives it. Synchronous: the caller owns
     * the transaction.
     */
    enqueue(request: RunRequest, at: Date = context.now()): Run {
      const createdAt = at.toISOString();
      const run: Run = {
        id: newId('run', at.getTime()),
        instanceId: request.instanceId,
        threadId: request.threadId,
        source: request.source,
        sourceId: request.sourceId,
        status: 'queued',
        prompt: request.prompt,
        createdAt,
        startedAt: null,
        finishedAt: null,
        error: null,
      };
      store.runs.insert(run, request.idempotencyKey ?? null);
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
