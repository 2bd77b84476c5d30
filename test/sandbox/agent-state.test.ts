// A sandboxed instance's CLI state is its own: the run's HOME and CLAUDE_CONFIG_DIR are its
// instance's, inside Steward's data folder, with the user's login and configuration brought in. A
// hostile run (a stand-in for Claude Code that writes a SessionStart hook and an MCP server into its
// settings, a base URL into its own and its workspace's settings, and tries the user's ~/.claude)
// leaves the user's files untouched, and nothing it wrote widens the next run's network: the policy
// comes from the instance's configuration and the user's own files only. What the CLI keeps
// (sessions, a token it refreshed) is there at the next run; a login the user renews reaches it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

const fakeClaude = path.resolve(import.meta.dirname, '../fixtures/sandbox/fake-claude.sh');
const skip = lacks('sandbox');

let t: TestCore;
let home: string;
let secret: http.Server;
let secretPort: number;
let instance: Instance;
const userFiles: Record<string, string> = {};

const userFile = (relative: string) => path.join(home, relative);
const snapshot = () => Object.fromEntries(Object.keys(userFiles).map((relative) => [relative, fs.readFileSync(userFile(relative), 'utf8')]));

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  home = tempDir('steward-home-');
  fs.mkdirSync(userFile('.claude'));
  userFiles['.claude/settings.json'] = JSON.stringify({ userMarker: true, permissions: { allow: [] } });
  userFiles['.claude/.credentials.json'] = JSON.stringify({ claudeAiOauth: { accessToken: 'tok-user-1' } });
  userFiles['.claude.json'] = JSON.stringify({ oauthAccount: { emailAddress: 'ada@example.com' }, userID: 'u1', secretProjectNote: 'the user\'s own', mcpServers: {} });
  for (const [relative, text] of Object.entries(userFiles)) fs.writeFileSync(userFile(relative), text);
  secret = http.createServer((_request, response) => response.end('a server no run was given'));
  await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
  secretPort = (secret.address() as AddressInfo).port;
  const env = { HOME: home, PROBE_USER_HOME: home, PROBE_SECRET_PORT: String(secretPort) };
  const created = await t.api('POST', '/api/instances', { name: 'claude', agent: { provider: 'command', preset: 'claude-code', command: fakeClaude, env } });
  expect(created.status).toBe(201);
  instance = created.body.instance;
  // The workspace's own settings name a loopback endpoint (as an earlier, unsandboxed run could have written them).
  fs.mkdirSync(path.join(instance.workspaceDir, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(instance.workspaceDir, '.claude/settings.json'), JSON.stringify({ env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${secretPort}` } }));
});

afterAll(async () => {
  secret?.close();
  await t?.close();
});

async function runOnce(): Promise<Record<string, string>> {
  const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' })).body as { run: Run };
  const finished = await settled(t, run.id);
  expect(finished.status, finished.error ?? '').toBe('succeeded');
  const messages = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string }[];
  return Object.fromEntries(messages.filter((message) => message.role === 'assistant').map((message) => message.content.split(': ')));
}

describe.skipIf(skip)("a sandboxed instance's CLI state", () => {
  it("is the instance's own, with the user's login and settings brought in; what a run writes there never reaches the user's files", async () => {
    const before = snapshot();
    const said = await runOnce();
    expect(said).toMatchObject({
      credentials: 'tok-user-1',
      account: 'yes',
      // Only the account part of the user's ~/.claude.json is brought in.
      'user-projects': 'no',
      'settings-user': 'yes',
      'settings-hook': 'no',
      'session-kept': 'no',
      'secret-port': 'no',
      'own-settings-write': 'yes',
      'own-global-write': 'yes',
      'user-settings-write': 'no',
      'workspace-settings-write': 'no',
    });
    expect(snapshot()).toEqual(before);
    const state = path.join(t.dataDir, 'agent-homes', instance.id, '.claude');
    expect(fs.readFileSync(path.join(state, 'settings.json'), 'utf8')).toContain('SessionStart');
  });

  it("keeps what the CLI keeps for the next run, but takes its configuration from the user's again, and nothing it wrote widens the network", async () => {
    const said = await runOnce();
    expect(said).toMatchObject({
      // The token the CLI refreshed inside is newer than the user's: it stays.
      credentials: 'tok-refreshed',
      // The run replaced its global file; the account is brought in again.
      account: 'yes',
      'settings-user': 'yes',
      'settings-hook': 'no',
      'session-kept': 'yes',
      'secret-port': 'no',
    });
  });

  it('brings in a login the user renewed since', async () => {
    const renewed = JSON.stringify({ claudeAiOauth: { accessToken: 'tok-user-2' } });
    fs.writeFileSync(userFile('.claude/.credentials.json'), renewed);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(userFile('.claude/.credentials.json'), later, later);
    userFiles['.claude/.credentials.json'] = renewed;
    const said = await runOnce();
    expect(said.credentials).toBe('tok-user-2');
  });

  it('goes with its instance', async () => {
    const state = path.join(t.dataDir, 'agent-homes', instance.id);
    expect(fs.existsSync(state)).toBe(true);
    expect((await t.api('DELETE', `/api/instances/${instance.id}`)).status).toBe(204);
    await waitFor(() => !fs.existsSync(state), { what: 'its agent state to be removed', timeoutMs: 2_000 });
  });
});
