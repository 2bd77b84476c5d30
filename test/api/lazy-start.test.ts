// The built daemon starts light: what a fresh Steward does not use is not loaded until it is. The
// project is built (as `npm run build` builds it) into a temp folder, and the daemon is started
// there with a module resolve hook that writes down every URL it loads. At start it has not loaded
// the ACP SDK, nor the chunks holding the tunnel's providers, the remotes' client and follower,
// the notification sender, the decision-link pages or the MCP server, nor Ajv; each comes once it
// is used.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../support/processes';
import { request, tempDir } from '../support/temp';

const work = tempDir('steward-lazy-start-');
const out = path.join(work, 'out');
const cli = path.join(out, 'main/cli.js');
const dataDir = path.join(work, 'data');
const loadLog = path.join(work, 'loaded.log');
const hook = path.join(work, 'log-loads.mjs');
let daemon: ChildProcess | undefined;
let url: string;
let key: string;

// Registers a resolve hook, which runs in the loader's thread: every URL a module is resolved to,
// one a line, written as it is resolved, to the file STEWARD_TEST_LOAD_LOG names.
const resolveHook = `import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  fs.appendFileSync(process.env.STEWARD_TEST_LOAD_LOG, resolved.url + '\\n');
  return resolved;
}`;
const hookSource = `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(resolveHook)}));\n`;

/** The built chunk that holds a source module: found by the `// src/…` line the bundler writes above each module's code. */
function chunkOf(source: string): string {
  const files = fs.readdirSync(path.join(out, 'main'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  const holding = files.filter((file) => fs.readFileSync(path.join(out, 'main', file), 'utf8').includes(`\n// ${source}\n`));
  expect(holding, `the chunks holding ${source}`).toHaveLength(1);
  return pathToFileURL(path.join(out, 'main', holding[0])).href;
}

const loaded = () => new Set(fs.readFileSync(loadLog, 'utf8').split('\n'));
const acpSdkLoaded = () => [...loaded()].some((loadedUrl) => loadedUrl.includes('/node_modules/@agentclientprotocol/sdk/'));
const api = (method: string, route: string, body?: unknown) =>
  request(`${url}${route}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  // Beside node_modules and package.json (its "type"), as out/ is in the project.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(work, 'node_modules'));
  fs.copyFileSync(path.join(root, 'package.json'), path.join(work, 'package.json'));
  const built = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', out, '--logLevel', 'warn'], { cwd: root, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  fs.writeFileSync(hook, hookSource);

  const created = spawnSync(process.execPath, [cli, 'keys', 'create', '--name', 'test', '--data-dir', dataDir], { encoding: 'utf8' });
  expect(created.status, created.stderr).toBe(0);
  key = created.stdout.trim().split('\n').at(-1)!;

  daemon = spawn(process.execPath, ['--import', pathToFileURL(hook).href, cli, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, STEWARD_LOG_LEVEL: 'warn', STEWARD_TEST_LOAD_LOG: loadLog },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    daemon!.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    daemon!.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1]);
    });
    daemon!.once('exit', (code) => reject(new Error(`the daemon exited (${code}): ${seen}`)));
  });
  expect((await request(`${url}/api/health`, {})).status).toBe(200);
}, 180_000);

afterAll(async () => {
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((resolve) => daemon!.once('exit', resolve));
    daemon.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a fresh daemon', () => {
  it('has loaded none of what it has not used: the ACP SDK, the tunnel providers, the remotes client, the notification sender, the link pages', () => {
    const atStart = loaded();
    expect(atStart.has(pathToFileURL(cli).href)).toBe(true); // the hook saw the start
    expect(acpSdkLoaded()).toBe(false);
    for (const source of [
      'src/main/core/tunnel/connectors.ts',
      'src/main/core/remotes/remote-client.ts',
      'src/main/core/remotes/follower.ts',
      'src/main/core/services/notification-sender.ts',
      'src/main/core/http/approval-link-pages.ts',
      'src/main/core/mcp-server.ts',
    ]) {
      expect(atStart.has(chunkOf(source)), source).toBe(false);
    }
    // Nor Ajv, Fastify's default validator compiler (the core gives Fastify its own compilers), nor
    // the MCP SDK's: in no chunk it loaded.
    const startChunks = [...atStart].filter((loadedUrl) => loadedUrl.startsWith(pathToFileURL(out).href));
    expect(startChunks.length).toBeGreaterThan(1);
    for (const chunk of startChunks) {
      expect(fs.readFileSync(new URL(chunk), 'utf8'), chunk).not.toMatch(/^\/\/ \S*node_modules\/(ajv|@fastify\/ajv-compiler|@modelcontextprotocol\/sdk)\//m);
    }
  });

  it('loads the remotes client once a remote is checked', async () => {
    const chunk = chunkOf('src/main/core/remotes/remote-client.ts');
    expect(loaded().has(chunk)).toBe(false);
    const { status, body } = await api('POST', '/api/remotes/check', { url: 'http://127.0.0.1:1', apiKey: 'stw_whatever' });
    expect(status).toBe(200);
    expect(body.check.state).toBe('unreachable');
    expect(loaded().has(chunk)).toBe(true);
    // Checking follows nothing.
    expect(loaded().has(chunkOf('src/main/core/remotes/follower.ts'))).toBe(false);
  });

  it('loads the notification sender once a channel is tested', async () => {
    const chunk = chunkOf('src/main/core/services/notification-sender.ts');
    expect(loaded().has(chunk)).toBe(false);
    const created = await api('POST', '/api/notification-channels', { name: 'Nowhere', kind: 'webhook', url: 'http://127.0.0.1:1/hook' });
    expect(created.status).toBe(201);
    const tested = await api('POST', `/api/notification-channels/${created.body.channel.id}/test`, {});
    expect(tested.status).toBe(200);
    expect(tested.body.delivery.status).toBe('failed');
    expect(loaded().has(chunk)).toBe(true);
  });

  it('loads the decision-link pages once a link is opened', async () => {
    const chunk = chunkOf('src/main/core/http/approval-link-pages.ts');
    expect(loaded().has(chunk)).toBe(false);
    const page = await request(`${url}/api/approvals/links/nosuchtoken`, {});
    expect(page.status).toBe(404);
    expect(page.text).toContain('Unknown link');
    expect(loaded().has(chunk)).toBe(true);
  });
});
