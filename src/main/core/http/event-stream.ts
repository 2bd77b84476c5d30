// GET /api/events: the live events as Server-Sent Events. `activity` events carry their sequence
// number as the SSE id, so a client that reconnects with Last-Event-ID (EventSource does this by
// itself) gets exactly the lines it missed; `run` events say a run changed status, `instance`
// events that an instance did, `changed` events which automation or webhook to reload. A client that
// missed more than can be replayed gets a `reset` event and should reload instead. A `heartbeat`
// comes every heartbeatMs. A reader that falls behind, or stops reading, is sent `overflow` and
// closed (sse-writer.ts); a key (or browser session) has at most streamsPerCredential streams open.
// A stream is held by the credential that opened it (credential-holds.ts): when the key is revoked,
// or the run whose key it is ends, the stream gets a `revoked` event and is closed at once.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { operations } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { parseInput } from '../../../shared/parse-input';
import { authorize } from '../caller';
import type { Services } from '../compose-services';
import type { LiveEvent } from '../services/live-events';
import type { HttpLimits } from './limits';
import { createSseWriter, frame, named } from './sse-writer';

const maxReplay = 10_000;

export function registerEventStream(app: FastifyInstance, services: Services, limits: HttpLimits): void {
  const open = new Set<FastifyReply>();
  // A replay larger than this would overflow a reader that is keeping up: `reset` instead.
  const replayBudgetBytes = Math.floor(limits.streamBufferBytes / 2);
  app.addHook('preClose', (done) => {
    for (const reply of open) reply.raw.end();
    done();
  });

  app.get('/api/events', async (request, reply) => {
    const caller = services.access.authenticate(request.headers);
    // Every instance's lines and runs: not for a run's key, which reaches its own instance only.
    authorize(caller, operations['events.stream']);
    const { query } = parseInput(operations['events.stream'], { params: {}, query: request.query });
    const streams = caller.credential === undefined ? 0 : services.holds.count(caller.credential, 'events');
    if (streams >= limits.streamsPerCredential) {
      throw new AppError('too_many_streams', `This key already has ${streams} event streams open, at most ${limits.streamsPerCredential} at once: close one, or share one.`, {
        headers: { 'retry-after': '5' },
      });
    }
    const header = request.headers['last-event-id'];
    const fromHeader = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : undefined;
    const resumeFrom = fromHeader ?? query.lastEventId;

    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    open.add(reply);
    let unsubscribe = () => {};
    const writer = createSseWriter(out, limits.streamBufferBytes, () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(reply);
      forget();
    });
    const forget = services.holds.hold(caller, 'events', () => writer.finish(named('revoked', { reason: 'the key that opened this stream was revoked, or its run ended' })));
    // Declared after the writer that clears it: its end comes from a 'close' event, never synchronously.
    const heartbeat = setInterval(() => {
      writer.checkStalled();
      writer.write(named('heartbeat', {}));
    }, limits.heartbeatMs);

    // From here to the subscription nothing awaits: no commit can fall between the missed lines
    // read from SQLite and the live ones, and `lastSeq` drops any line seen twice.
    let lastSeq = resumeFrom ?? services.live.lastSeq();
    const deliver = (event: LiveEvent) => {
      if (event.type === 'activity') {
        if (event.seq <= lastSeq) return;
        lastSeq = event.seq;
      }
      writer.write(frame(event));
    };
    writer.write(`retry: 2000\n: connected\n\n`);
    if (resumeFrom !== undefined) {
      const missed = services.live.replay(resumeFrom, maxReplay)?.map(({ seq, event }) => ({ type: 'activity', seq, event }) as const);
      const bytes = missed?.reduce((sum, event) => sum + frame(event).length, 0) ?? Infinity;
      if (missed === undefined || bytes > replayBudgetBytes) {
        lastSeq = services.live.lastSeq();
        writer.write(named('reset', { reason: 'more was missed than can be replayed; reload (GET /api/activity) to catch up' }, lastSeq));
      } else {
        for (const event of missed) deliver(event);
      }
    }
    if (writer.ended) return;
    unsubscribe = services.live.subscribe(deliver);
  });
}
