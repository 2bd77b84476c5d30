import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, b, d) => d(null, b));
app.post('/api/webhooks/trigger/:token', async (req, reply) => reply.code(202).send({ run: { id: 'run_0', status: 'queued', threadId: 'thr_0' } }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${app.server.address().port}\n`);
