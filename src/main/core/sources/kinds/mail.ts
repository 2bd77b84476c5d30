// The mail source: an IMAP mailbox, a run per new message. The cursor is the mailbox's UIDVALIDITY
// and the last UID handled, moved only with the runs (ctx.emit). It listens with IDLE where the
// server has it and polls where not, and proves the connection alive with a NOOP every minute,
// answered within 30 s: a connection that died quietly is found out, never taken for a quiet
// mailbox. A dropped connection fails the attempt at once (the manager reconnects with backoff).
import type { MailTrigger } from '../../../../shared/contract';
import type { SourceContext, SourceEvent, SourceKind } from '../source-kind';
import { type MailConnection, type MailTools, mailProblem, openMailConnection, openMailbox } from './mail-connection';
import { envelopeEvent, mailEvent, maxSourceBytes } from './mail-message';

/** How often a NOOP proves the connection (and an IDLE is restarted): the source's liveness. */
const heartbeatMs = 60_000;
/** How long the server has to answer a command before the connection counts as dead. */
const answerWithinMs = 30_000;
/**
 * Messages handed over per emit, so that thousands of new ones are not all held in memory at once
 * (an event holds at most 64 KiB). The first look hands over more at once: the catch-up policy
 * `latest` picks the newest within one emit, so it holds for up to 500 messages found at start.
 */
const batchSize = { live: 50, initial: 500 };
const dayMs = 24 * 60 * 60 * 1000;

type Ctx = SourceContext<MailTrigger>;

/** `work`, unless the connection is lost or the server stays silent for answerWithinMs first. */
function answered<T>(connection: MailConnection, config: MailTrigger, what: string, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${config.host}:${config.port} did not answer ${what} within ${answerWithinMs / 1000} s`)), answerWithinMs);
    const off = connection.whenLost(reject);
    work.then(resolve, (error: unknown) => reject(error instanceof Error && /^(Could not|The mailbox)/.test(error.message) ? error : new Error(mailProblem(config, error)))).finally(() => {
      clearTimeout(timer);
      off();
    });
  });
}

/** The UIDs after `last`, ascending (`last+1:*` also names the newest message when none is newer). */
async function uidsAfter(connection: MailConnection, config: MailTrigger, last: number): Promise<number[]> {
  const found = await answered(connection, config, 'a search', connection.client.search({ uid: `${last + 1}:*` }, { uid: true }));
  return (found || []).filter((uid) => uid > last).sort((a, b) => a - b);
}

/**
 * Hands over the messages after `last` (in batches, each with the cursor's move) and returns the
 * new last UID. `initial`: the first look after (re)starting; it always emits once, so that the
 * manager sees the first look even when nothing is new.
 */
async function handOver(ctx: Ctx, connection: MailConnection, validity: string, last: number, initial: boolean): Promise<number> {
  const { config } = ctx;
  const uids = await uidsAfter(connection, config, last);
  if (uids.length === 0 && initial) ctx.emit([], { set: [['uidvalidity', validity], ['uid', String(last)]] }, { initial });
  const size = initial ? batchSize.initial : batchSize.live;
  for (let start = 0; start < uids.length; start += size) {
    const batch = uids.slice(start, start + size);
    const events: SourceEvent[] = [];
    for (const uid of batch) {
      const query = { uid: true, envelope: true, internalDate: true, size: true, source: { maxLength: maxSourceBytes } };
      const message = await answered(connection, config, 'a fetch', connection.client.fetchOne(String(uid), query, { uid: true }));
      // Deleted between the search and the fetch: nothing to run, the cursor passes it.
      if (message) events.push(await mailEvent(message, validity, config.mailbox, ctx.now()));
    }
    last = batch.at(-1)!;
    if (ctx.signal.aborted) break;
    ctx.emit(events, { set: [['uidvalidity', validity], ['uid', String(last)]] }, { initial });
  }
  return last;
}

/** The first look: a baseline when there is no cursor (or it was for another UIDVALIDITY), otherwise what came since. */
async function firstLook(ctx: Ctx, connection: MailConnection, validity: string, uidNext: number): Promise<number> {
  const storedValidity = ctx.cursor.get('uidvalidity');
  const storedUid = Number(ctx.cursor.get('uid'));
  const known = storedValidity !== undefined && Number.isInteger(storedUid);
  if (known && storedValidity === validity && ctx.phase !== 'first' && ctx.phase !== 'resume') return handOver(ctx, connection, validity, storedUid, true);
  if (known && storedValidity !== validity) {
    ctx.logger.warn({ mailbox: ctx.config.mailbox, was: storedValidity, now: validity }, "the mailbox's UIDVALIDITY changed: its UIDs were renumbered, so a new baseline is taken and the messages already there are not run");
  }
  // Everything below UIDNEXT is there already; a server that does not say UIDNEXT is asked.
  const last = Number.isInteger(uidNext) && uidNext > 0 ? uidNext - 1 : ((await uidsAfter(connection, ctx.config, 0)).at(-1) ?? 0);
  ctx.emit([], { set: [['uidvalidity', validity], ['uid', String(last)]] }, { initial: true });
  return last;
}

type Wake = 'exists' | 'heartbeat' | 'stop';

async function listen(ctx: Ctx): Promise<void> {
  const { config, signal } = ctx;
  const connection = await openMailConnection(config, ctx);
  const { client } = connection;
  const stop = () => void connection.close();
  signal.addEventListener('abort', stop, { once: true });
  let pending = false;
  let wake: ((why: Wake) => void) | undefined;
  try {
    const mailbox = await answered(connection, config, 'SELECT', openMailbox(connection, config));
    const validity = String(mailbox.uidValidity);
    client.on('exists', () => {
      pending = true;
      wake?.('exists');
    });
    client.on('mailboxOpen', (opened: { uidValidity: bigint }) => {
      if (String(opened.uidValidity) !== validity) connection.fail(new Error(`The mailbox "${config.mailbox}" was renumbered (its UIDVALIDITY changed); reconnecting to take a new baseline`));
    });
    const idle = client.capabilities.has('IDLE');
    const how = idle ? 'IDLE' : `polled every ${config.pollSeconds} s`;
    let last = await firstLook(ctx, connection, validity, mailbox.uidNext);
    ctx.alive(how);
    let polledAt = Date.now();
    while (!signal.aborted) {
      // IDLE is started here and broken by the next command (the NOOP); a poller only waits.
      const idling = idle && !pending ? client.idle().catch(() => false) : undefined;
      const wait = pending ? 0 : idle ? heartbeatMs : Math.min(heartbeatMs, Math.max(0, polledAt + config.pollSeconds * 1000 - Date.now()));
      const why = await new Promise<Wake>((resolve, reject) => {
        const timer = setTimeout(() => done('heartbeat'), wait);
        const onAbort = () => done('stop');
        const settle = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          wake = undefined;
        };
        // Called at once when the connection is lost already; a lost connection forgets its listeners.
        const off = connection.whenLost((error) => {
          settle();
          reject(error);
        });
        function done(reason: Wake) {
          settle();
          off();
          resolve(reason);
        }
        signal.addEventListener('abort', onAbort, { once: true });
        wake = done;
      });
      if (why === 'stop' || signal.aborted) break;
      await answered(connection, config, 'NOOP', client.noop());
      await idling;
      ctx.alive(how);
      const pollDue = Date.now() - polledAt >= config.pollSeconds * 1000;
      if (idle || pending || pollDue) {
        pending = false;
        polledAt = Date.now();
        last = await handOver(ctx, connection, validity, last, false);
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
    await connection.close();
  }
}

/** The UIDVALIDITY and UID an event key names, or undefined for a key that is not the mail source's. */
function parseKey(eventKey: string): { validity: string; uid: number } | undefined {
  const match = /^(\d+):(\d+)$/.exec(eventKey);
  return match ? { validity: match[1], uid: Number(match[2]) } : undefined;
}

const uidOf = (eventKey: string) => parseKey(eventKey)?.uid ?? 0;

async function afterRun(ctx: Pick<Ctx, 'config' | 'secret' | 'reach' | 'logger' | 'signal'>, eventKey: string, status: string): Promise<void> {
  const { config, logger } = ctx;
  if (status !== 'succeeded' || config.afterRun === 'leave') return;
  const key = parseKey(eventKey);
  if (!key) return;
  const connection = await openMailConnection(config, ctx);
  try {
    const mailbox = await answered(connection, config, 'SELECT', openMailbox(connection, config));
    if (String(mailbox.uidValidity) !== key.validity) {
      logger.warn({ mailbox: config.mailbox, eventKey }, 'the mailbox was renumbered since the message was found: it is left as it is');
      return;
    }
    const uid = String(key.uid);
    if (config.afterRun === 'mark-read') {
      await answered(connection, config, 'STORE', connection.client.messageFlagsAdd(uid, ['\\Seen'], { uid: true }));
    } else {
      const moved = await answered(connection, config, 'MOVE', connection.client.messageMove(uid, config.moveTo!, { uid: true }));
      if (!moved) throw new Error(`${config.host}:${config.port} did not move message ${uid} to "${config.moveTo}"`);
    }
  } finally {
    await connection.close();
  }
}

async function preview(config: MailTrigger, tools: MailTools & Pick<Ctx, 'now'>): Promise<SourceEvent[]> {
  const connection = await openMailConnection(config, tools);
  try {
    const mailbox = await answered(connection, config, 'EXAMINE', openMailbox(connection, config, true));
    const since = new Date(tools.now().getTime() - dayMs);
    // SEARCH SINCE counts whole days: the last day's messages are then picked by their arrival time.
    const uids = (await answered(connection, config, 'a search', connection.client.search({ since }, { uid: true }))) || [];
    const newest = uids.sort((a, b) => b - a).slice(0, 200);
    if (newest.length === 0) return [];
    const messages = await answered(connection, config, 'a fetch', connection.client.fetchAll(newest.join(','), { uid: true, envelope: true, internalDate: true }, { uid: true }));
    return messages
      .map((message) => envelopeEvent(message, String(mailbox.uidValidity), tools.now()))
      .filter((event) => new Date(event.at).getTime() >= since.getTime())
      // Newest first; within one second (the server's arrival times count seconds), the higher UID.
      .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : uidOf(b.key) - uidOf(a.key)));
  } finally {
    await connection.close();
  }
}

export const mailSource: SourceKind<MailTrigger> = {
  kind: 'mail',
  run: listen,
  livenessMs: () => heartbeatMs,
  preview,
  afterRun,
};
