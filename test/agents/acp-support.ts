// What the ACP conformance tests share: one turn of an ACP agent run directly (no daemon), with a
// test's own answer to its permission requests, and the workspace it left.
import fs from 'node:fs';
import path from 'node:path';
import { type AcpAgent, startAcpAgent } from '../../src/main/core/agents/acp-agent';
import type { AgentEvent, AgentExit, PermissionAnswer, PermissionRequest } from '../../src/main/core/agents/events';
import { tempDir } from '../support/core';

export interface AcpTurn {
  exit: AgentExit;
  events: AgentEvent[];
  asked: PermissionRequest[];
  workspaceDir: string;
  seconds: number;
}

/** The agent's turn on `prompt` in a new workspace, each permission request answered by `answer`. */
export async function acpTurn(agent: AcpAgent, prompt: string, answer: (request: PermissionRequest) => PermissionAnswer): Promise<AcpTurn> {
  const workspaceDir = tempDir('steward-acp-turn-');
  const events: AgentEvent[] = [];
  const asked: PermissionRequest[] = [];
  const started = Date.now();
  const agentProcess = startAcpAgent(agent, {
    prompt,
    workspaceDir,
    env: {},
    onEvent: (event) => events.push(event),
    requestPermission: (request) => {
      asked.push(request);
      return Promise.resolve(answer(request));
    },
  });
  const exit = await agentProcess.exited;
  return { exit, events, asked, workspaceDir, seconds: (Date.now() - started) / 1000 };
}

/** The option of `kind` a request offered. */
export function optionOf(request: PermissionRequest, kind: string): PermissionAnswer {
  const option = request.options.find((each) => each.kind === kind);
  if (!option) throw new Error(`no ${kind} option in ${JSON.stringify(request.options)}`);
  return { optionId: option.id };
}

export const fileIn = (turn: AcpTurn, name: string): string | undefined => {
  const file = path.join(turn.workspaceDir, name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
};
