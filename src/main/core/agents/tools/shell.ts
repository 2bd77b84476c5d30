// shell: one command through /bin/sh in the workspace (inside the run's sandbox when it has one), in
// a process group of its own so that a timeout or a cancelled run ends everything it started, with
// the agent's environment (not Steward's). Output (stdout and stderr together) is capped, keeping
// its start and end.
import { spawn } from 'node:child_process';
import { type Tool, capText, numberArg, stringArg } from './tool';

const maxOutputChars = 30_000;
const maxKeptBytes = 4 * 1024 * 1024;

export const shellTool: Tool = {
  name: 'shell',
  acts: true,
  description: 'Run a shell command in the workspace and get its exit code and output. No terminal and no input: use non-interactive flags.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', description: 'The command line, run with /bin/sh -c' },
      timeoutSeconds: { type: 'integer', minimum: 1, maximum: 600, default: 120 },
    },
    required: ['command'],
    additionalProperties: false,
  },
  run(args, { workspaceDir, env, signal, sandbox }) {
    const command = stringArg(args, 'command');
    const timeoutMs = numberArg(args, 'timeoutSeconds', 120, 1, 600) * 1000;
    return new Promise((resolve) => {
      const started = sandbox ? sandbox.wrap('/bin/sh', ['-c', command], env) : { command: '/bin/sh', args: ['-c', command], env };
      const child = spawn(started.command, started.args, { cwd: workspaceDir, env: started.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const keep = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.length > maxKeptBytes) output = output.slice(0, maxKeptBytes / 2) + output.slice(-maxKeptBytes / 2);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let stopped = '';
      const stop = (why: string) => {
        stopped = why;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => stop(`timed out after ${timeoutMs / 1000} s`), timeoutMs);
      const onAbort = () => stop('stopped: the run ended');
      signal.addEventListener('abort', onAbort, { once: true });
      child.on('error', (error) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(`could not run: ${error.message}`);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const status = stopped || `exit code ${code}`;
        resolve(`${status}\n${capText(output, maxOutputChars)}`.trimEnd());
      });
    });
  },
};
