// Command agents: a CLI run in the instance's workspace as a child process in a session of its
// own; a cancel, a timeout or the end of the run ends its whole process tree (process-tree.ts),
// whatever sessions its descendants started. The `custom` preset takes any
// command: the prompt goes to stdin unless an argument holds {prompt}; each stdout line is an
// assistant line. Presets run their CLI with its non-interactive flags and parse its JSON event
// stream. A run succeeds when the CLI exits 0 and its stream reported no failure: a preset's event
// marked `failed` fails the run even on exit 0 (some CLIs exit 0 after an error); a non-zero exit
// fails it with the last words of its stderr, or else what the stream reported.
import { createInterface } from 'node:readline';
import type { AgentConfig } from '../../../shared/contract';
import type { ErrorHint } from './error-class';
import type { AgentEvent, AgentExit, AgentLaunch, AgentProcess, Backlog } from './events';
import { spawnAgent, within } from './agent-spawn';
import { agentEnvironment } from './agent-environment';
import { parseLine, presets } from './presets';
import { stewardEnv } from './steward-server';
import { killGraceMs } from './process-tree';

/** After the CLI's own exit: how long its output may take to drain, and what it left behind to obey SIGTERM. */
const drainMs = 2_000;
const leftoverGraceMs = 1_000;
const maxFailureChars = 300;

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
  /** The whole environment of the CLI process, but for the run's own markers. */
  env: NodeJS.ProcessEnv;
  stdin: string;
  eventsFrom: (line: string) => AgentEvent[];
  /** What a parser still held when the output ended. */
  endOfOutput: () => AgentEvent[];
}

/** The CLI's environment (agent-environment.ts): a few of Steward's variables and those `envAllow` names, the preset's, then the instance's own (which wins). */
export function agentEnv(agent: CommandAgent, envAllow: readonly string[]): NodeJS.ProcessEnv {
  return agentEnvironment({ preset: agent.preset === 'custom' ? undefined : presets[agent.preset].env, agent: agent.env, envAllow });
}

function commandLine(agent: CommandAgent, launch: AgentLaunch): CommandLine {
  const { prompt, resumeSession, steward } = launch;
  if (agent.preset === 'custom') {
    const { command, args, promptInArgs } = customCommandLine(agent, prompt);
    return { command, args, env: { ...agentEnv(agent, launch.envAllow ?? []), ...(steward ? stewardEnv(steward) : {}) }, stdin: promptInArgs ? '' : prompt, eventsFrom: (line) => [{ type: 'assistant', text: line, raw: { stream: 'stdout', line } }], endOfOutput: () => [] };
  }
  const preset = presets[agent.preset];
  const parser = preset.parser();
  let args = [...preset.args, ...(agent.args ?? [])];
  if (launch.maxBudgetUsd !== undefined && preset.withBudget) args = preset.withBudget(args, launch.maxBudgetUsd);
  // Steward's server is added to whatever the user's configuration makes.
  let env = agentEnv(agent, launch.envAllow ?? []);
  if (steward) {
    const given = preset.withSteward?.(args, steward, env, launch.sandbox?.policy.home) ?? { args, env: {} };
    args = given.args;
    env = { ...env, ...stewardEnv(steward), ...given.env };
  }
  if (launch.permissions === 'ask' && steward && preset.asking) args = preset.asking(args);
  return {
    command: agent.command ?? preset.command,
    args: resumeSession !== undefined && preset.resume ? preset.resume(args, resumeSession) : args,
    env,
    stdin: prompt,
    eventsFrom: (line) => parseLine(parser, line),
    endOfOutput: () => parser.end(),
  };
}

/** Output left hanging on a question to a human: "Continue? [y/N]", "Password:", "Approve (y/n)". */
const asksForInput = /(\[y\/n\]|\(y\/n\)|\(yes\/no\)|\?|password:|passphrase:)\s*$/i;

/** Stack frames and runtime trailers say nothing about why a CLI gave up. */
const stderrNoise = /^(at\s|Node\.js v\d|note: run with `RUST_BACKTRACE)/;

/** The CLI's own last words on stderr: its last line that says something, cut to a sentence's length. */
export function lastWords(stderr: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- colour codes are control characters
  const lines = stderr.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/).map((line) => line.trim());
  const words = lines.findLast((line) => /\p{L}/u.test(line) && !stderrNoise.test(line));
  if (words === undefined) return undefined;
  return words.length > maxFailureChars ? `${words.slice(0, maxFailureChars - 1)}…` : words;
}

/**
 * Lines of the agent's output on their way to the runner, in order. While the runner's backlog is
 * full the output stream is paused (the agent blocks on its pipe once it is full) and the lines
 * already split off it wait here, a chunk's worth at most; they go on once there is room. stderr is
 * never paused, so an agent blocked on one stream never waits on the other.
 */
function createOutputValve(stream: NodeJS.ReadableStream, backlog: Backlog | undefined, take: (line: string) => void) {
  let waiting: string[] = [];
  let next = 0;
  let held = false;
  let closed = false;
  let heldMs = 0;
  let heldSince = 0;
  let settle: () => void = () => {};
  const done = new Promise<void>((resolve) => (settle = resolve));

  function drain(): void {
    while (next < waiting.length) {
      if (backlog?.full()) {
        held = true;
        heldSince = Date.now();
        stream.pause();
        void backlog.room().then(() => {
          held = false;
          heldMs += Date.now() - heldSince;
          stream.resume();
          drain();
        });
        return;
      }
      take(waiting[next++]);
    }
    waiting = [];
    next = 0;
    if (closed) settle();
  }

  /** How long the output was held back so far. */
  const heldFor = () => heldMs + (held ? Date.now() - heldSince : 0);

  return {
    push: (line: string): void => {
      waiting.push(line);
      if (!held) drain();
    },
    close: (): void => {
      closed = true;
      if (!held) drain();
    },
    /** Settles once the output ended and its every line was taken. */
    done,
    /**
     * Waits for `promise`, but no longer than `ms` in which the output was not held back: while it
     * waits for the runner, the agent's output is still coming, however long that takes.
     */
    async within(promise: Promise<unknown>, ms: number): Promise<void> {
      let settled = false;
      void promise.then(() => (settled = true));
      const startedAt = Date.now();
      const heldAtStart = heldFor();
      for (;;) {
        const left = ms - (Date.now() - startedAt - (heldFor() - heldAtStart));
        if (settled || left <= 0) return;
        await within(promise, left);
      }
    },
  };
}

export function startCommandAgent(agent: CommandAgent, launch: AgentLaunch): AgentProcess {
  const { command, args, env, stdin, eventsFrom, endOfOutput } = commandLine(agent, launch);
  const { child, tree, stderr, stopWatching } = spawnAgent(command, args, env, launch);

  // A run never waits for a human: stdin carries the prompt (or nothing) and is then closed.
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
  // What the stream itself said of a failure: a CLI that exits 0 all the same still fails the run.
  let reportedFailure: string | undefined;
  let hint: ErrorHint | undefined;
  const emit = (event: AgentEvent) => {
    if (event.type === 'system' && event.failed) reportedFailure = event.text;
    if (event.type === 'system' && event.errorClass) hint = { errorClass: event.errorClass, resetsAt: event.resetsAt };
    launch.onEvent(event);
  };
  const output = createOutputValve(child.stdout, launch.backlog, (line) => {
    for (const event of eventsFrom(line)) emit(event);
  });
  lines.on('line', output.push);
  lines.on('close', output.close);
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let outputDone = false;
  const outputEnded = Promise.all([output.done, closed]).then(() => {
    outputDone = true;
  });

  let stoppedAsking: string | undefined;
  let killedByUs = false;
  let ending: Promise<void> | undefined;

  const exited = new Promise<AgentExit>((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      stopWatching();
      const reason = error.code === 'ENOENT' ? `${command} was not found on PATH` : error.message;
      resolve({ code: 127, signal: null, stderr: `${stderr()}${reason}\n`, waitedForInput: undefined, failure: `The agent could not start: ${reason}.` });
    });
    child.on('exit', (code, signal) => {
      stopWatching();
      clearTimeout(quiet);
      void endOfRun().then(() => {
        if (outputDone) for (const event of endOfOutput()) emit(event);
        const words = killedByUs || code === 0 ? undefined : lastWords(stderr());
        const exitedWith = `The agent exited with ${signal ? `signal ${signal}` : `code ${code}`}`;
        const why = words ?? (killedByUs ? undefined : reportedFailure);
        const failure = code === 0 ? (killedByUs ? undefined : reportedFailure) : why && `${exitedWith}: ${why}`;
        resolve({ code, signal, stderr: stderr(), waitedForInput: stoppedAsking, failure, failureShown: failure !== undefined && why === reportedFailure && reportedFailure !== undefined ? reportedFailure : undefined, hint });
      });
    });
  });

  /** A run's end ends what it started: whatever of the tree outlived the CLI is ended before the run is over. */
  async function endOfRun(): Promise<void> {
    // Something it left in the background may hold its output open: give the output a moment to drain first.
    await output.within(outputEnded, drainMs);
    await ending;
    await tree.end(leftoverGraceMs);
    await output.within(outputEnded, 500); // what the last of them wrote
  }

  function stop(): void {
    stoppedAsking = question;
    kill();
  }
  function kill(): void {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null || ending) return;
    killedByUs = true;
    // The tree is looked at while the CLI still lives: once it dies its children lose their parent link.
    ending = tree.end(killGraceMs);
  }
  return { exited, kill };
}
