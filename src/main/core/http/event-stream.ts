// GET /api/events: the live events as Server-Sent Events. `activity` events carry their sequence
// number as the SSE id, so a client that reconnects with Last-Event-ID (EventSource does this by
// itself) gets exactly the lines it missed; `run` events say a run changed status, `instance`
// events that an instance did, `changed` events which automation or webhook to reload. A client that
// missed more than the replay limit gets a `reset` event and should poll /api/activity instead.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { operations } from '../../../shared/contract';
import { parseInput } from '../../../shared/parse-input';
import type { Services } from '../services';
import type { LiveEvent } from '../services/live-events';

const maxReplay = 10_000;
const keepAliveMs = 15_000;

export function registerEventStream(app: FastifyInstance, services: Services): void {
  const open = new Set<FastifyReply>();
  app.addHook('preClose', (done) => {
    for (const reply of open) reply.raw.end();
    done();
  });

  app.get('/api/events', async (request, reply) => {
    services.access.authenticate(request.headers);
    const { query } = parseInput(operations['events.stream'], { params: {}, query: request.query });
    const header = request.headers['last-event-id'];
    const fromHeader = typeof header === 'string' && /^\d+$/.test(header) ? Number(header) : undefined;
    const resumeFrom = fromHeader ?? query.lastEventId;

    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    const send = (event: LiveEvent) => {
      if (event.type === 'activity') out.write(`id: ${event.seq}\nevent: activity\ndata: ${JSON.stringify({ seq: event.seq, ...event.event })}\n\n`);
      else if (event.type === 'run') out.write(`event: run\ndata: ${JSON.stringify(event.run)}\n\n`);
      else if (event.type === 'instance') out.write(`event: instance\ndata: ${JSON.stringify(event.instance)}\n\n`);
      else out.write(`event: changed\ndata: ${JSON.stringify({ resource: event.resource, id: event.id })}\n\n`);
    };

    // From here to the subscription nothing awaits: no commit can fall between the missed lines
    // read from SQLite and the live ones, and `lastSeq` drops any line seen twice.
    let lastSeq = resumeFrom ?? services.live.lastSeq();
    const deliver = (event: LiveEvent) => {
      if (event.type === 'activity') {
        if (event.seq <= lastSeq) return;
        lastSeq = event.seq;
      }
      send(event);
    };
    out.write(`retry: 2000\n: connected\n\n`);
    if (resumeFrom !== undefined) {
      const missed = services.live.replay(resumeFrom, maxReplay);
      if (missed === undefined) {
        lastSeq = services.live.lastSeq();
        out.write(`id: ${lastSeq}\nevent: reset\ndata: ${JSON.stringify({ reason: `more than ${maxReplay} lines were missed; poll /api/activity to catch up` })}\n\n`);
      } else {
        for (const { seq, event } of missed) deliver({ type: 'activity', seq, event });
      }
    }
    const unsubscribe = services.live.subscribe(deliver);

    const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), keepAliveMs);
    open.add(reply);
    out.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      open.delete(reply);
    });
  });
}
