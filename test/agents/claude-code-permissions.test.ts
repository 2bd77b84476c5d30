// Claude Code asking before it acts, for real: an instance with `permissions: ask` runs the pinned
// CLI with --permission-prompt-tool naming Steward's approval_prompt tool (instead of skipping
// permissions), against the scripted Anthropic server. A Bash call waits for a person: allowed, it
// runs and writes its file; denied, nothing is written, the model is told why, and the run still ends.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Approval, Instance } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { type AgentDaemon, startAgentDaemon } from './support';
import { type AnthropicServer, claudeCodeEnv, startAnthropicServer } from './servers/anthropic';

let agents: AgentDaemon;
let model: AnthropicServer;
let configDir: string;
let claudeTmp: string;
let instance: Instance;

beforeAll(async () => {
  model = await startAnthropicServer();
  configDir = tempDir('steward-claude-config-');
  claudeTmp = tempDir('stw-cc-');
  agents = await startAgentDaemon();
  const env = claudeCodeEnv(model, configDir, claudeTmp);
  const created = await agents.api('POST', '/api/instances', { name: 'Careful Claude', agent: { provider: 'command', preset: 'claude-code', env }, permissions: { mode: 'ask', timeoutSeconds: 600 } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  instance = await agents.ready(created.body.instance.id);
  expect(instance.status, JSON.stringify(instance)).not.toBe('error');
});

afterAll(async () => {
  await agents?.close();
  await model?.close();
  for (const dir of [configDir, claudeTmp]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The run's one pending approval, once Claude Code has asked for it. */
async function askedFor(runId: string): Promise<Approval> {
  for (const deadline = Date.now() + 90_000; ; ) {
    const { body } = await agents.api('GET', `/api/approvals?status=pending&runId=${runId}`);
    if (body.approvals.length > 0) return body.approvals[0];
    if (Date.now() > deadline) throw new Error(`no approval asked for run ${runId}: ${JSON.stringify(await agents.linesOf((await agents.api('GET', `/api/runs/${runId}`)).body.run))}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('claude-code with permissions: ask', () => {
  for (const decision of ['allow', 'deny'] as const) {
    it(`a Bash call waits for a person; ${decision === 'allow' ? 'allowed, it runs' : 'denied, nothing is written and the run ends'}`, async () => {
      const file = `asked-${decision}-${process.pid}.txt`;
      const command = `echo approved > ${file}`;
      model.script([
        { text: ['I will write the file.'], calls: [{ name: 'Bash', input: { command, description: 'Write the file' } }], usage: { input: 900, output: 30 } },
        { text: [decision === 'allow' ? 'Written.' : 'I was not allowed to.'], usage: { input: 200, output: 8 } },
      ]);
      const run = await agents.send(instance.id, `Write the file ${file}`);
      const approval = await askedFor(run.id);
      expect(approval).toMatchObject({ kind: 'tool', title: `The agent wants to run ${command}`, detail: { tool: 'Bash', command } });
      expect((await agents.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('waiting');

      const decided = await agents.api('POST', `/api/approvals/${approval.id}/decision`, { decision, ...(decision === 'deny' ? { note: 'not today' } : {}) });
      expect(decided.status).toBe(200);
      const done = await agents.settled(run.id, 120_000);
      expect(done.status, JSON.stringify(done)).toBe('succeeded');
      expect(fs.existsSync(path.join(instance.workspaceDir, file))).toBe(decision === 'allow');
      // What the model was told of the call: its output, or the person's refusal.
      const told = JSON.stringify(model.turns().at(-1)!.body.messages!.at(-1)!.content);
      if (decision === 'deny') expect(told).toContain('not today');
      const said = (await agents.messages(run.threadId)).map((message) => message.content);
      expect(said).toContain(decision === 'allow' ? `Allowed over the API: The agent wants to run ${command}` : `Denied over the API: The agent wants to run ${command} — note: not today`);
    }, 180_000);
  }
});
