// Runs: queuing one now (see run-queue.ts) and reading them and their threads back; why a queued
// run waits; one run's own messages; the threads (chats) of an instance.
import type { z } from 'zod';
import type { Message, NewRun, Run, RunListQuery, RunQueue, Thread, ThreadListQuery, ThreadQuery, ThreadSummary } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import { readSettings } from '../settings';
import type { Caller } from '../caller';
import { assertWithinBudget } from './budgets';
import type { ServiceContext } from './context';
import { type RunRequest, enqueueRun } from './run-queue';

export function createRunsService(context: ServiceContext) {
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

    /**
     * The run that an agent's call makes a parent (of a run it sends, or of the runs of an automation
     * or webhook it makes): null for a caller that is no run. 403 run_depth_limit when that run is
     * already as deep as `runner.maxRunDepth` allows, so that agents cannot start each other forever.
     */
    parentFor(caller: Caller): string | null {
      if (caller.runId === undefined) return null;
      const parent = store.runs.get(caller.runId);
      if (!parent) return null;
      const { maxRunDepth } = readSettings(store).runner;
      if ((parent.depth ?? 0) >= maxRunDepth) {
        throw new AppError(
          'run_depth_limit',
          `This run was started by a chain of ${parent.depth} run${parent.depth === 1 ? '' : 's'}; runs may start runs ${maxRunDepth} deep (Settings: runner.maxRunDepth), so it cannot start more.`,
        );
      }
      return parent.id;
    },

    /** A prompt for an instance, from the app's Chat, the API or another agent (`parentRunId`): a new chat thread, or one it continues. */
    create(input: NewRun, parentRunId: string | null = null): Run {
      assertRoom();
      const at = context.now();
      const run = store.transaction(() => {
        const instance = store.instances.get(input.instanceId);
        if (!instance) throw new AppError('invalid_field', `No instance ${input.instanceId}.`, { field: 'instanceId' });
        assertWithinBudget(store, { instanceId: instance.id }, at);
        let threadId = input.threadId;
        if (threadId === undefined) {
          threadId = newId('thr', at.getTime());
          store.threads.insert(threadId, 'chat', instance.id, at.toISOString());
        } else if (store.threads.get(threadId, 0, 1)?.ownerType !== 'chat') {
          throw new AppError('invalid_field', `No chat thread ${threadId}: a prompt continues a chat, not an automation's or a webhook's thread.`, { field: 'threadId' });
        }
        // What the caller says it is, but an agent's prompt is never a person's chat.
        const source = parentRunId === null ? (input.source ?? 'api') : 'api';
        return enqueueRun(store, { instanceId: instance.id, threadId, source, sourceId: null, prompt: input.prompt, parentRunId }, at);
      });
      return run;
    },

    get(id: string): Run {
      const run = store.runs.get(id);
      if (!run) throw new AppError('not_found', `No run ${id}.`);
      return run;
    },

    list: (query: z.output<typeof RunListQuery>): Run[] => store.runs.list(query),

    /** Why a queued run waits, in the runner's own terms (see runs.claimable); null for any other run. */
    queueOf(run: Run): RunQueue | null {
      if (run.status !== 'queued') return null;
      return store.read(() => {
        const position = store.runs.queuedAhead(run, context.now().toISOString()) + 1;
        const instance = store.instances.get(run.instanceId);
        const running = store.runs.running();
        const blocking = running.find((each) => each.instanceId === run.instanceId);
        const wait = (reason: RunQueue['reason'], message: string): RunQueue => ({ position, reason, message, blockingRunId: blocking?.id ?? null });
        const name = instance?.name ?? run.instanceId;
        if (run.startAfter && Date.parse(run.startAfter) > context.now().getTime()) return wait('retry_wait', `Waits to retry until ${run.startAfter}.`);
        if (instance?.status === 'stopped') return wait('instance_stopped', `${name} is stopped: the run waits until it is started again.`);
        if (instance?.status === 'provisioning') return wait('instance_provisioning', `${name} is being checked (its agent probed); the run starts once it is ready.`);
        if (blocking) return wait('instance_busy', `${name} is running another run; one run per instance at a time${position > 1 ? `, and ${position - 1} queued before this one` : ''}.`);
        if (position > 1) return wait('behind_others', `${position - 1} run${position > 2 ? 's' : ''} of ${name} queued before this one go${position > 2 ? '' : 'es'} first.`);
        const { maxRunning } = readSettings(store).runner;
        if (running.length >= maxRunning) return wait('runner_full', `${running.length} runs are running, the most at once (Settings: runs at the same time is ${maxRunning}).`);
        return wait('starting', 'It starts in a moment.');
      });
    },

    /** A page of one run's messages. */
    messages(id: string, query: z.output<typeof ThreadQuery>): { messages: Message[]; hasMore: boolean } {
      if (!store.runs.get(id)) throw new AppError('not_found', `No run ${id}.`);
      return store.threads.runMessages(id, query.after, query.limit);
    },

    threads: (query: z.output<typeof ThreadListQuery>): ThreadSummary[] => store.threads.list(query),

    thread(id: string, query: z.output<typeof ThreadQuery>): Thread {
      const thread = store.threads.get(id, query.after, query.limit);
      if (!thread) throw new AppError('not_found', `No thread ${id}.`);
      return thread;
    },
  };
}

export type RunsService = ReturnType<typeof createRunsService>;
