// Command agents: a CLI run in the instance's workspace as a child process in a process group of
// its own, so a cancel or timeout ends everything it started. The `custom` preset takes any
// command: the prompt goes to stdin unless an argument holds {prompt}; each stdout line is an
// assistant line. Presets run their CLI with its non-interactive flags and parse its JSON event
// stream. Either way the exit code decides success.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';
import type { AgentConfig } from '../../../shared/contract';
import type { AgentEvent, AgentExit, AgentLaunch, AgentProcess } from './events';
import { parseLine, presets } from './presets';

const maxStderrBytes = 64 * 1024;
const killGraceMs = 5_000;

type CommandAgent = Extract<AgentConfig, { provider: 'command' }>;

/** An agent that cannot run as configured; the run fails with this message. */
export class AgentUnavailable extends Error {}

/** The command line for a custom agent, and whether the prompt went into it. */
export function customCommandLine(agent: CommandAgent, prompt: string): { command: string; args: string[]; promptInArgs: boolean } {
  if (!agent.command) throw new AgentUnavailable('A custom agent needs a command.');
  const args = agent.args ?? [];
  const promptInArgs = args.some((arg) => arg.includes('{prompt}'));
  return { command: agent.command, args: args.map((arg) => arg.split('{prompt}').join(prompt)), promptInArgs };
}

interface CommandLine {
  command: string;
  args: string[];
  stdin: string;
  eventsFrom: (line: string) => AgentEvent[];
}

function commandLine(agent: CommandAgent, prompt: string): CommandLine {
  if (agent.preset === 'custom') {
    const { command, args, promptInArgs } = customCommandLine(agent, prompt);
    return { command, args, stdin: promptInArgs ? '' : prompt, eventsFrom: (line) => [{ type: 'assistant', text: line, raw: { stream: 'stdout', line } }] };
  }
  const preset = presets[agent.preset];
  if (!preset) {
    throw new AgentUnavailable(`The ${agent.preset} preset is not wired up yet; use claude-code, codex or a custom command meanwhile.`);
  }
  return { command: agent.command ?? preset.command, args: [...preset.args(), ...(agent.args ?? [])], stdin: prompt, eventsFrom: (line) => parseLine(preset, line) };
}

export function startCommandAgent(agent: CommandAgent, launch: AgentLaunch): AgentProcess {
  const { command, args, stdin, eventsFrom } = commandLine(agent, launch.prompt);
  fs.mkdirSync(launch.workspaceDir, { recursive: true });
  const child = spawn(command, args, {
    cwd: launch.workspaceDir,
    env: { ...process.env, ...agent.env, ...launch.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });

  // A run never waits for a human: stdin carries the prompt (or nothing) and is then closed.
  child.stdin.on('error', () => {}); // an agent that exits without reading its stdin
  child.stdin.end(stdin);

  createInterface({ input: child.stdout }).on('line', (line) => {
    for (const event of eventsFrom(line)) launch.onEvent(event);
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-maxStderrBytes);
  });

  const exited = new Promise<AgentExit>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? `${command} was not found on PATH` : error.message;
      resolve({ code: 127, signal: null, stderr: `${stderr}${reason}\n` });
    });
    let drain: NodeJS.Timeout | undefined;
    child.on('close', (code, signal) => {
      clearTimeout(drain);
      resolve({ code, signal, stderr });
    });
    // Something it started in the background may hold its output open: after its exit, give the
    // output a moment to drain, then end the whole group.
    child.on('exit', (code, signal) => {
      drain = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // the group is already gone
        }
        resolve({ code, signal, stderr });
      }, 2_000).unref();
    });
  });

  return {
    exited,
    kill() {
      if (child.pid === undefined || child.exitCode !== null) return;
      const group = -child.pid;
      try {
        process.kill(group, 'SIGTERM');
      } catch {
        return; // already gone
      }
      const hard = setTimeout(() => {
        try {
          process.kill(group, 'SIGKILL');
        } catch {
          // gone after SIGTERM
        }
      }, killGraceMs);
      hard.unref();
      void exited.then(() => clearTimeout(hard));
    },
  };
}
