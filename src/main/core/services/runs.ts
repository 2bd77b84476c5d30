// Runs: queuing one (the single way a prompt enters the system) and reading them back.
import type { z } from 'zod';
import type { Run, RunListQuery, RunSource, Thread, ThreadQuery } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import type { ActivityLabel } from '../store/repositories/activity';
import type { ServiceContext } from './context';

export interface RunRequest {
  instanceId: string;
  threadId: string;
  source: RunSource;
  sourceId: string | null;
  prompt: string;
}

const labels: Record<RunSource, ActivityLabel> = { automation: 'cron', webhook: 'hook', chat: 'chat', api: 'api' };

/** One line of text for the activity feed: whitespace collapsed, long text cut. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function createRunsService(context: ServiceContext) {
  const { store } = context;

  return {
    /**
     * Queues a run: the run row, its prompt as the thread's next user message, and the activity
     * line. Synchronous; the caller owns the transaction so all three land together or not at all.
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
      store.runs.insert(run);
      store.threads.addMessage({ threadId: run.threadId, runId: run.id, role: 'user', content: run.prompt, createdAt });
      store.activity.append({
        instanceId: run.instanceId,
        runId: run.id,
        kind: 'user',
        label: labels[run.source],
        displayText: oneLine(run.prompt),
        raw: JSON.stringify({ type: 'run.queued', runId: run.id, source: run.source, sourceId: run.sourceId, prompt: run.prompt }),
        timestamp: createdAt,
      });
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
