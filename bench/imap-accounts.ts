// 50 IMAP accounts idling: the resident memory of a real `steward serve` with no mail automation,
// with one (the IMAP client and the mail parser loaded), and with 50, each on its own account of
// one local Dovecot, all listening (IDLE) — the same process, in one run. Needs Dovecot and root
// (test/support/dovecot.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { silentLogger } from '../src/main/core/logger';
import type { Automation } from '../src/shared/contract';
import { createTestDovecot } from '../test/support/dovecot';
import { dovecotPath, executable } from '../test/support/programs';
import { type Server, startDaemon } from '../test/support/processes';
import { median, residentMB } from './measure';

const accounts = Number(process.env.BENCH_IMAP_ACCOUNTS ?? 50);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The median of five readings half a second apart: one reading can land on a collection. */
async function steadyMB(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    await sleep(500);
    readings.push(residentMB(pid) ?? Number.NaN);
  }
  return Math.round(median(readings) * 10) / 10;
}

export async function imapAccountsBench(): Promise<Record<string, unknown>> {
  if (!executable(dovecotPath) || process.getuid?.() !== 0) throw new Error(`imap-accounts needs Dovecot at ${dovecotPath} (apt-get install dovecot-imapd) and root`);
  const users = Object.fromEntries(Array.from({ length: accounts }, (_, i) => [`user${i + 1}`, `password-${i + 1}`]));
  const dovecot = await createTestDovecot({ users });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-imap-'));
  let server: Server | undefined;
  try {
    await dovecot.start();
    const core = await createCore({ dataDir, listen: false, logger: silentLogger() });
    const key = core.services.apiKeys.create('bench').key;
    await core.close();
    server = await startDaemon(dataDir, ['--port', '0']);
    const url = server.url;
    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}${route}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
      return text ? (JSON.parse(text) as Record<string, unknown>) : {};
    };
    const pid = server.process.pid!;
    const add = async (user: string) => {
      await api('PUT', `/api/secrets/imap-${user}`, { value: users[user] });
      const made = await api('POST', '/api/automations', { name: `Mail of ${user}`, prompt: 'Read {{event.subject}}', trigger: { mail: { host: '127.0.0.1', port: dovecot.port, tls: false, user, password: `imap-${user}` } } });
      return (made.automation as Automation).id;
    };
    const allListening = async (ids: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const listed = (await api('GET', '/api/automations')).automations as Automation[];
        const waiting = listed.filter((automation) => ids.includes(automation.id) && automation.source?.state !== 'listening');
        if (waiting.length === 0) return;
        if (Date.now() > deadline) throw new Error(`${waiting.length} of ${ids.length} mail sources are not listening after ${timeoutMs / 1000} s: ${JSON.stringify(waiting[0].source)}`);
        await sleep(200);
      }
    };

    await sleep(2000);
    const noneMB = await steadyMB(pid);
    const names = Object.keys(users);
    const first = await add(names[0]);
    await allListening([first], 30_000);
    const oneMB = await steadyMB(pid);
    const started = performance.now();
    const ids = [first, ...(await Promise.all(names.slice(1).map(add)))];
    await allListening(ids, 120_000);
    const listeningMs = Math.round(performance.now() - started);
    // Past the first exchanges, into the idling itself.
    await sleep(3000);
    const allMB = await steadyMB(pid);
    return {
      accounts,
      rssNoneMB: noneMB,
      rssOneMB: oneMB,
      rssAllMB: allMB,
      loadedMB: Math.round((oneMB - noneMB) * 10) / 10,
      perAccountKB: Math.round(((allMB - oneMB) * 1024) / Math.max(1, accounts - 1)),
      allListeningMs: listeningMs,
      loadavg: os.loadavg().map((value) => Math.round(value * 100) / 100),
    };
  } finally {
    await server?.stop();
    await dovecot.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
