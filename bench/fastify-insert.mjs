// Baseline for the trigger-ingest benchmark: Fastify and better-sqlite3, each request's body
// INSERTed in its own transaction (WAL), answered 202. `node bench/fastify-insert.mjs NORMAL|FULL`
// picks the synchronous level. Prints its port on stdout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const synchronous = process.argv[2] === 'FULL' ? 'FULL' : 'NORMAL';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-fastify-'));
const db = new Database(path.join(dir, 'baseline.db'));
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${synchronous}`);
db.exec('CREATE TABLE deliveries (id INTEGER PRIMARY KEY, received_at TEXT NOT NULL, body TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO deliveries (received_at, body) VALUES (?, ?)');

const app = Fastify({ logger: false });
app.post('/api/webhooks/trigger/:token', async (request, reply) => {
  const { lastInsertRowid } = insert.run(new Date().toISOString(), JSON.stringify(request.body));
  reply.code(202);
  return { run: { id: `run_${lastInsertRowid}`, status: 'queued' } };
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${app.server.address().port}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
