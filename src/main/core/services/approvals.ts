// Approvals, decided: by a person (the app, the API, a single-use link) or by the timeout. A run
// waiting to start is queued when allowed and cancelled when not; an agent waiting in the middle
// of its work (ask_human, a permission) gets the answer (its run's timeout stands still meanwhile:
// the runner hears the run move to waiting). Pending approvals expire on one timer, armed for the
// earliest; a restart keeps them; a run's expire when it ends, however it ends.
import type { Approval, ApprovalDetail, Decider, Decision } from '../../../shared/contract';
import { oneLine } from '../../../shared/format';
import { deciderWords } from '../../../shared/run-cancel-words';
import { describePermission } from './permission-words';
import { AppError } from '../../../shared/errors';
import { type Caller, isRunCaller } from '../caller';
import type { ApprovalFilter, ApprovalRecord } from '../store/repositories/approvals';
import { createApproval, describeWait, recordDecision } from './approval-records';
import type { ServiceContext } from './context';
import { askerOf } from './alerts';
import { isEnded } from '../../../shared/run-states';

export interface Ask {
  kind: 'tool' | 'question';
  title: string;
  detail: ApprovalDetail;
  timeoutSeconds: number;
}

export const approvalLinkPath = (token: string): string => `/api/approvals/links/${token}`;

export function createApprovalsService(context: ServiceContext, deps: { linkBase: () => string }) {
  const { store, clock } = context;
  const waiters = new Map<string, (approval: ApprovalRecord) => void>();
  let timer: unknown;
  let running = false;
  let unsubscribe: (() => void) | undefined;

  /** The caller's own run: these tools are for a run's key. */
  function callerRun(caller: Caller, tool: string) {
    const run = caller.runId === undefined ? undefined : store.runs.get(caller.runId);
    if (!run) throw new AppError('forbidden', `${tool} is for an agent's run: call it with the run's own key (Steward's MCP server gives it to the agent).`);
    return run;
  }

  /** What the agent is told when the answer is no. */
  function refusal(record: ApprovalRecord): AppError {
    const wait = describeWait(Math.round((Date.parse(record.expiresAt) - Date.parse(record.createdAt)) / 1000));
    if (record.status === 'denied') return new AppError('forbidden', `Denied by a person${record.note ? `: ${record.note}` : '.'}`);
    return new AppError('expired', record.decidedBy === null ? 'Not answered: the run is ending.' : `Not answered within ${wait}: treat it as denied.`);
  }

  function present(record: ApprovalRecord, caller?: Caller): Approval {
    const { allowToken, denyToken, ...approval } = record;
    // Links are an admin's only: never a run's caller, whatever scope it carries.
    if (record.status !== 'pending' || caller?.scope !== 'admin' || isRunCaller(caller)) return approval;
    const base = deps.linkBase();
    return { ...approval, links: { allow: base + approvalLinkPath(allowToken), deny: base + approvalLinkPath(denyToken) } };
  }

  function find(id: string): ApprovalRecord {
    const record = store.approvals.get(id);
    if (!record) throw new AppError('not_found', `No approval ${id}.`);
    return record;
  }

  /** 409 for an approval no longer pending, saying what became of it. */
  function assertPending(record: ApprovalRecord): void {
    if (record.status === 'expired') throw new AppError('expired', `Approval ${record.id} expired at ${record.decidedAt ?? record.expiresAt}: ${record.decidedBy === 'timeout' ? 'no one answered in time' : 'its run ended'}.`);
    if (record.status !== 'pending') throw new AppError('already_decided', `Approval ${record.id} was already ${record.status} (${record.decidedBy}) at ${record.decidedAt}.`);
  }

  /** What a decision does to a run waiting to start: queued, or cancelled with why. */
  function settleRun(record: ApprovalRecord, at: Date): void {
    if (record.kind !== 'run') return;
    if (record.status === 'allowed') {
      store.runs.move(record.runId, 'waiting', 'queued');
      return;
    }
    const run = store.runs.get(record.runId);
    if (run?.status !== 'waiting') return;
    const reason =
      record.status === 'denied'
        ? `Not started: denied ${deciderWords(record.decidedBy)}${record.note ? ` (${record.note})` : ''}.`
        : `Not started: not approved within ${describeWait(Math.round((Date.parse(record.expiresAt) - Date.parse(record.createdAt)) / 1000))}.`;
    store.runs.finish(run.id, 'cancelled', at.toISOString(), reason, null);
  }

  function conclude(id: string, outcome: { status: 'allowed' | 'denied' | 'expired'; decidedBy: Decider | null; answer?: string | undefined; note?: string | undefined }): ApprovalRecord {
    const at = context.now();
    const decided = store.transaction(() => {
      const current = find(id);
      assertPending(current);
      store.approvals.decide(id, { status: outcome.status, decidedBy: outcome.decidedBy, answer: outcome.answer ?? null, note: outcome.note ?? null, decidedAt: at.toISOString() });
      const record = find(id);
      recordDecision(store, record, at);
      settleRun(record, at);
      return record;
    });
    waiters.get(id)?.(decided);
    arm();
    return decided;
  }

  function expireOverdue(): void {
    for (const record of store.approvals.overdue(context.now().toISOString())) {
      try {
        conclude(record.id, { status: 'expired', decidedBy: 'timeout' });
      } catch (error) {
        if (!(error instanceof AppError)) throw error; // decided meanwhile
      }
    }
  }

  /** A run ends (or is being cancelled): its pending approvals expire with it. */
  function expireForRun(runId: string): void {
    for (const record of store.approvals.pendingForRun(runId)) {
      try {
        conclude(record.id, { status: 'expired', decidedBy: null });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
  }

  function arm(): void {
    if (timer !== undefined) clock.clearTimer(timer);
    timer = undefined;
    if (!running) return;
    const next = store.approvals.nextExpiry();
    if (next === null) return;
    // Timers are capped: a week-long approval is looked at again within the hour.
    const delay = Math.min(Math.max(Date.parse(next) - context.now().getTime(), 0), 3_600_000);
    timer = clock.setTimer(() => {
      timer = undefined;
      try {
        expireOverdue();
      } catch (error) {
        context.logger.error({ err: error }, 'approvals: could not expire overdue approvals');
      }
      arm();
    }, delay);
  }

  return {
    present,
    /** The service's clock, for the link pages' "in 55 minutes". */
    now: (): Date => context.now(),
    list: (filter: ApprovalFilter, caller?: Caller): Approval[] => store.approvals.list(filter).map((record) => present(record, caller)),
    get: (id: string, caller?: Caller): Approval => present(find(id), caller),

    decide(id: string, decision: Decision, by: Decider, caller?: Caller): Approval {
      expireOverdue();
      const record = find(id);
      assertPending(record);
      if (decision.answer !== undefined && decision.decision === 'deny') throw new AppError('invalid_field', 'An answer goes with allow; give a note to say why you deny.', { field: 'answer' });
      return present(conclude(id, { status: decision.decision === 'allow' ? 'allowed' : 'denied', decidedBy: by, answer: decision.answer, note: decision.note }), caller);
    },

    /**
     * Decides by a link's token: its own decision (allow or deny; for a question with options, the
     * option picked on the page); 410 material for one used or expired.
     */
    decideByLink(token: string, answer?: string): { record: ApprovalRecord; decision: 'allow' | 'deny' } | undefined {
      expireOverdue();
      const record = store.approvals.byToken(token);
      if (!record) return undefined;
      const decision = token === record.allowToken ? 'allow' : 'deny';
      if (record.status !== 'pending') return { record, decision };
      if (decision === 'allow' && record.detail.options && (answer === undefined || !record.detail.options.includes(answer))) {
        throw new AppError('invalid_field', 'Pick one of the options the agent offered.', { field: 'answer' });
      }
      try {
        return { record: conclude(record.id, { status: decision === 'allow' ? 'allowed' : 'denied', decidedBy: 'link', answer: decision === 'allow' ? answer : undefined }), decision };
      } catch (error) {
        // Decided elsewhere a moment before: what became of it.
        if (error instanceof AppError && (error.code === 'already_decided' || error.code === 'expired')) return { record: find(record.id), decision };
        throw error;
      }
    },
    /**
     * The approval a link belongs to, for its confirmation page (a GET never decides). Overdue ones
     * expire first: a link opened past its time (a laptop that slept through the timer) no longer decides.
     */
    byLink: (token: string): { record: ApprovalRecord; decision: 'allow' | 'deny'; asker: string | undefined } | undefined => {
      expireOverdue();
      const record = store.approvals.byToken(token);
      const run = record && store.runs.get(record.runId);
      return record && { record, decision: token === record.allowToken ? 'allow' : 'deny', asker: run && askerOf(context, run) };
    },

    /** An agent asks in the middle of its run: the run waits (its timeout stands still) until a person or the timeout decides. */
    async ask(runId: string, ask: Ask): Promise<ApprovalRecord> {
      const run = store.runs.get(runId);
      if (!run) throw new AppError('not_found', `No run ${runId}.`);
      if (run.status !== 'running' && run.status !== 'waiting') throw new AppError('invalid_field', `Run ${runId} is ${run.status}: only a running run can ask.`);
      const record = store.transaction(() => {
        const created = createApproval(store, { runId, instanceId: run.instanceId, threadId: run.threadId, ...ask }, context.now());
        store.runs.move(runId, 'running', 'waiting');
        return created;
      });
      arm();
      try {
        return await new Promise<ApprovalRecord>((resolve) => waiters.set(record.id, resolve));
      } finally {
        waiters.delete(record.id);
        // Back to running unless the run ended meanwhile (cancelled while it waited).
        if (store.approvals.pendingForRun(runId).length === 0) store.runs.move(runId, 'waiting', 'running');
      }
    },

    /** ask_human: a run's agent asks a person; the answer, or an error saying it was denied or unanswered. */
    async question(caller: Caller, body: { question: string; options?: string[] | undefined; timeoutSeconds?: number | undefined }): Promise<{ record: ApprovalRecord; answer: string }> {
      const run = callerRun(caller, 'ask_human');
      const timeoutSeconds = body.timeoutSeconds ?? store.instances.get(run.instanceId)?.permissions.timeoutSeconds ?? 600;
      const record = await this.ask(run.id, { kind: 'question', title: oneLine(body.question, 120), detail: { text: body.question, ...(body.options ? { options: body.options } : {}) }, timeoutSeconds });
      if (record.status === 'allowed') return { record, answer: record.answer ?? record.note ?? 'Yes.' };
      throw refusal(record);
    },

    /** Claude Code's permission prompt tool: allow with the input unchanged, or deny with why. */
    async permission(caller: Caller, body: { tool_name: string; input: Record<string, unknown> }): Promise<{ behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string }> {
      const run = callerRun(caller, 'approval_prompt');
      const timeoutSeconds = store.instances.get(run.instanceId)?.permissions.timeoutSeconds ?? 600;
      const { title, detail } = describePermission(body.tool_name, body.input);
      const record = await this.ask(run.id, { kind: 'tool', title, detail, timeoutSeconds });
      if (record.status === 'allowed') return { behavior: 'allow', updatedInput: body.input };
      return { behavior: 'deny', message: refusal(record).message };
    },

    expireForRun,

    start(): void {
      running = true;
      unsubscribe = store.subscribe((change) => {
        if (change.type === 'run' && change.status !== undefined && isEnded(change.status)) expireForRun(change.runId);
        // Made elsewhere (a trigger, a fire): the timer may need to ring sooner.
        else if (change.type === 'changed' && change.resource === 'approval') arm();
      });
      for (const record of store.approvals.pendingOfEndedRuns()) expireForRun(record.runId);
      expireOverdue();
      arm();
    },
    stop(): void {
      running = false;
      unsubscribe?.();
      unsubscribe = undefined;
      arm();
      // An agent still waiting is told no one answered: Steward is stopping.
      for (const [id, resolve] of waiters) {
        const record = store.approvals.get(id);
        if (record) resolve({ ...record, status: 'expired', decidedBy: null });
      }
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
