// Command agents: a CLI run in the instance's workspace as a child process in a process group of
// its own, so a cancel or timeout ends everything it started. The `custom` preset takes any
// command: the prompt goes to stdin unless an argument holds {prompt}; each stdout line is an
// assistant line. Presets run their CLI with its non-interactive flags and parse its JSON event
// stream. Either way the exit code decides success.
import { spawn } from 'node:child_process';
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
  env: Record<string, string>;
  stdin: string;
  eventsFrom: (line: string) => AgentEvent[];
  /** What a parser still held when the output ended. */
  endOfOutput: () => AgentEvent[];
}

function commandLine(agent: CommandAgent, launch: AgentLaunch): CommandLine {
  const { prompt, resumeSession } = launch;
  if (agent.preset === 'custom') {
    const { command, args, promptInArgs } = customCommandLine(agent, prompt);
    return { command, args, env: {}, stdin: promptInArgs ? '' : prompt, eventsFrom: (line) => [{ type: 'assistant', text: line, raw: { stream: 'stdout', line } }], endOfOutput: () => [] };
  }
  const preset = presets[agent.preset];
  const parser = preset.parser();
  const args = [...preset.args, ...(agent.args ?? [])];
  return {
    command: agent.command ?? preset.command,
    args: resumeSession !== undefined && preset.resume ? preset.resume(args, resumeSession) : args,
    env: preset.env ?? {},
    stdin: prompt,
    eventsFrom: (line) => parseLine(parser, line),
    endOfOutput: () => parser.end(),
  };
}

/** Output left hanging on a question to a human: "Continue? [y/N]", "Password:", "Approve (y/n)". */
const asksForInput = /(\[y\/n\]|\(y\/n\)|\(yes\/no\)|\?|password:|passphrase:)\s*$/i;

export function startCommandAgent(agent: CommandAgent, launch: AgentLaunch): AgentProcess {
  const { command, args, env, stdin, eventsFrom, endOfOutput } = commandLine(agent, launch);
  // detached: a process group of its own, and a new session without a controlling terminal, so
  // a CLI that opens /dev/tty to ask something gets an error instead of a human.
  const child = spawn(command, args, {
    cwd: launch.workspaceDir,
    // PWD too: CLIs such as OpenCode take their working folder from it, and would otherwise
    // inherit Steward's own.
    env: { ...process.env, ...env, ...agent.env, ...launch.env, PWD: launch.workspaceDir },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });

  // A run never waits for a human: stdin carries the prompt (or nothing) and is then closed.
  child.stdin.on('error', () => {}); // an agent that exits without reading its stdin
  child.stdin.end(stdin);

  // A CLI that asks anyway and waits (on something other than stdin) is stopped once it has
  // been quiet for a while after a question, and the run fails saying so.
  let question: string | undefined;
  let quiet: NodeJS.Timeout | undefined;
  const heard = (chunk: Buffer) => {
    clearTimeout(quiet);
    const tail = chunk.toString().split('\n').at(-1) ?? '';
    question = tail.trim() && asksForInput.test(tail) ? tail.trim() : undefined;
    if (question !== undefined) quiet = setTimeout(() => stop(), launch.inputWaitMs ?? 10_000).unref();
  };
  child.stdout.on('data', heard);
  child.stderr.on('data', heard);

  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    for (const event of eventsFrom(line)) launch.onEvent(event);
  });
  const outputEnded = new Promise<void>((resolve) => lines.on('close', resolve));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-maxStderrBytes);
  });

  const exited = new Promise<AgentExit>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? `${command} was not found on PATH` : error.message;
      resolve({ code: 127, signal: null, stderr: `${stderr}${reason}\n`, waitedForInput: undefined });
    });
    let drain: NodeJS.Timeout | undefined;
    child.on('close', (code, signal) => {
      clearTimeout(drain);
      clearTimeout(quiet);
      void outputEnded.then(() => {
        for (const event of endOfOutput()) launch.onEvent(event);
        resolve({ code, signal, stderr, waitedForInput: stoppedAsking });
      });
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
        resolve({ code, signal, stderr, waitedForInput: stoppedAsking });
      }, 2_000).unref();
    });
  });

  let stoppedAsking: string | undefined;
  function stop(): void {
    stoppedAsking = question;
    kill();
  }
  function kill(): void {
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
  }
  return { exited, kill };
}
