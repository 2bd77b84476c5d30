// Webhook triggers: a token opens a webhook; the request is checked (signature), read (payload),
// filtered, rendered into a prompt, and the run is committed to SQLite, together with the
// delivery that records it, before the caller hears 202.
import type { RunStatus } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { WebhookRecord } from '../store/repositories/webhooks';
import type { SecretBox } from '../secrets';
import type { CommitBatcher } from './commit-batcher';
import { budgetBlock, recordBudgetSkip } from './budgets';
import type { ServiceContext } from './context';
import type { DeliveryLog, DeliveryResult, TriggerRequest } from './delivery-log';
import type { RunsService } from './runs';
import { beforeRun } from './run-queue';
import { verifySignature } from './signatures';
import { type Payload, queryPayload, readPayload } from './trigger-payload';
import type { WebhookDirectory } from './webhook-directory';
import { type RequestView, filterVerdict, renderPrompt, templatedKey } from './webhook-render';

export { renderTemplate } from './webhook-render';
export type { TriggerRequest } from './delivery-log';

const idempotencyWindowMs = 24 * 60 * 60 * 1000;
const maxIdempotencyKeyLength = 255;

type RunRef = { id: string; status: RunStatus; threadId: string };

/** What a trigger led to; `status` is the HTTP status its sender gets. */
export type TriggerResult =
  | { kind: 'run'; status: 200 | 202; run: RunRef; deliveryId: string }
  | { kind: 'skipped'; status: 200; reason: string; deliveryId: string }
  | { kind: 'challenge'; status: 200; challenge: string; deliveryId: string };

const unknownToken = () => new AppError('not_found', 'No webhook has this trigger URL.');
const disabled = () => new AppError('webhook_disabled', 'This webhook is disabled; enable it to accept triggers again.');
export const tooLarge = (limit: number, size?: number) =>
  new AppError('payload_too_large', `The body${size === undefined ? '' : ` (${size} bytes)`} is larger than this webhook takes: at most ${limit} bytes.`);

/** The seed's idempotency key: the Idempotency-Key header, else X-GitHub-Delivery. */
function headerKey(headers: RequestView['headers']): string | null {
  const header = headers['idempotency-key'] ?? headers['x-github-delivery'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || key === '') return null;
  if (key.length > maxIdempotencyKeyLength) {
    throw new AppError('invalid_field', `Idempotency-Key must be at most ${maxIdempotencyKeyLength} characters.`, { field: 'Idempotency-Key' });
  }
  return key;
}

/** Slack checks a new Request URL with a url_verification event that must be answered with its challenge. */
function slackChallenge(webhook: WebhookRecord, payload: Payload): string | null {
  if (webhook.sender !== 'slack' || payload.value === null || typeof payload.value !== 'object') return null;
  const { type, challenge } = payload.value as { type?: unknown; challenge?: unknown };
  return type === 'url_verification' && typeof challenge === 'string' ? challenge : null;
}

export function createTriggersService(
  context: ServiceContext,
  runs: RunsService,
  batcher: CommitBatcher,
  directory: WebhookDirectory,
  secrets: SecretBox,
  log: DeliveryLog,
) {
  const { store } = context;

  /** The webhook as it is at commit time: a token regenerated or a webhook disabled or deleted since the request arrived wins. */
  function current(webhook: WebhookRecord, request: TriggerRequest): WebhookRecord {
    const now = directory.get(webhook.id);
    if (!now || (request.origin === 'sender' && now.token !== webhook.token)) throw unknownToken();
    if (!now.enabled) throw disabled();
    return now;
  }

  async function recordOnly(webhook: WebhookRecord, request: TriggerRequest, result: DeliveryResult): Promise<string> {
    return batcher.write(() => log.write(current(webhook, request), request, result));
  }

  async function queue(webhook: WebhookRecord, request: TriggerRequest, view: RequestView, prompt: string): Promise<TriggerResult> {
    const idempotencyKey = request.origin === 'sender' ? (webhook.idempotencyKey === null ? headerKey(view.headers) : templatedKey(webhook, view)) : null;
    const result = await batcher.write((): TriggerResult => {
      const target = current(webhook, request);
      if (idempotencyKey) {
        const since = new Date(request.receivedAt.getTime() - idempotencyWindowMs).toISOString();
        const earlier = store.runs.findByIdempotencyKey(target.id, idempotencyKey, since);
        if (earlier) {
          const deliveryId = log.write(target, request, { status: 200, outcome: 'duplicate', runId: earlier.id });
          return { kind: 'run', status: 200, run: { id: earlier.id, status: earlier.status, threadId: earlier.threadId }, deliveryId };
        }
      }
      const block = budgetBlock(store, { instanceId: target.instanceId }, request.receivedAt);
      const run = runs.enqueue(
        { instanceId: target.instanceId, threadId: target.threadId, source: 'webhook', sourceId: target.id, prompt, idempotencyKey, replayOf: request.replayOf ?? null, parentRunId: target.createdByRunId, approval: beforeRun(target.approval, `Start a run of webhook "${target.name}"?`) },
        request.receivedAt,
      );
      // Over its instance's budget the request is still taken (the sender need not retry), and its run ends at once, saying why.
      if (block) {
        store.runs.finish(run.id, 'cancelled', request.receivedAt.toISOString(), `${block.message}.`, null);
        recordBudgetSkip(store, block, target.instanceId, request.receivedAt, { runId: run.id, label: 'hook' });
      }
      const deliveryId = log.write(target, request, { status: 202, outcome: 'accepted', runId: run.id, message: block ? `Its run was cancelled at once: ${block.message}.` : null });
      return { kind: 'run', status: 202, run: { id: run.id, status: block ? 'cancelled' : run.status, threadId: run.threadId }, deliveryId };
    });
    return result;
  }

  return {
    /** The core's clock: when a request arrived. */
    now: (): Date => context.now(),

    /** The webhook a token opens, enabled or not; checked before any body is read. */
    find(token: string): WebhookRecord {
      const webhook = directory.find(token);
      if (!webhook) throw unknownToken();
      return webhook;
    },

    assertEnabled(webhook: WebhookRecord): void {
      if (!webhook.enabled) throw disabled();
    },

    assertRoom: () => runs.assertRoom(),

    /** 413 from a declared Content-Length, before any of the body is read. */
    assertSize(webhook: WebhookRecord, contentLength: string | undefined): void {
      const size = Number(contentLength);
      if (contentLength !== undefined && Number.isFinite(size) && size > webhook.maxPayloadBytes) throw tooLarge(webhook.maxPayloadBytes, size);
    },

    /**
     * A request the webhook has let in (found, enabled, room, size): checks it, then queues a run,
     * skips it (filter) or answers Slack's challenge; each is recorded as a delivery. Refusals throw
     * and are the caller's to record (recordRefusal). Replays and tests skip signature and
     * idempotency checks.
     */
    async handle(webhook: WebhookRecord, request: TriggerRequest): Promise<TriggerResult> {
      const body = request.body ?? Buffer.alloc(0);
      if (request.origin === 'sender' && webhook.signature) {
        verifySignature(webhook.signature.scheme, secrets.open(webhook.signature.sealedSecret), request.headers, body, context.now());
      }
      if (body.length > webhook.maxPayloadBytes) throw tooLarge(webhook.maxPayloadBytes, body.length);
      const contentType = request.headers['content-type'];
      const payload = request.method === 'GET' ? queryPayload(request.query) : readPayload(Array.isArray(contentType) ? contentType[0] : contentType, request.body);
      const view: RequestView = { payload, headers: request.headers, query: request.query };

      const challenge = slackChallenge(webhook, payload);
      if (challenge !== null) {
        return { kind: 'challenge', status: 200, challenge, deliveryId: await recordOnly(webhook, request, { status: 200, outcome: 'challenge' }) };
      }
      const reason = filterVerdict(webhook, view);
      if (reason !== null) {
        return { kind: 'skipped', status: 200, reason, deliveryId: await recordOnly(webhook, request, { status: 200, outcome: 'skipped', message: reason }) };
      }
      return queue(webhook, request, view, renderPrompt(webhook, view));
    },

    /** Records a request a known webhook refused, for the sender's owner to see why. Never rejects. */
    async recordRefusal(webhook: WebhookRecord, request: TriggerRequest, error: AppError): Promise<void> {
      try {
        await batcher.write(() => log.write(webhook, request, { status: error.status, outcome: 'refused', errorCode: error.code, message: error.message }));
      } catch (failure) {
        context.logger.warn({ err: failure }, 'could not record a refused delivery');
      }
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;
