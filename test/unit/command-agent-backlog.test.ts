// A command agent's output held back by the runner's backlog: the agent may exit long before its
// last lines are read, and the run still takes every one of them, in order, before it ends,
// however long the backlog stays full (longer than the grace given to output after the exit).
import { describe, expect, it } from 'vitest';
import { startCommandAgent } from '../../src/main/core/agents/command-agent';
import type { AgentEvent } from '../../src/main/core/agents/events';
import { tempDir } from '../support/temp';

describe('a command agent behind a full backlog', () => {
  it('takes every line the agent printed before it exited, in order, however long the backlog is full', { timeout: 60_000 }, async () => {
    const texts: string[] = [];
    let exitedAt: number | undefined;
    let full = false;
    let room: () => void = () => {};
    const agent = startCommandAgent(
      { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; seq 1 10000'] },
      {
        prompt: '',
        workspaceDir: tempDir(),
        env: {},
        onEvent: (event: AgentEvent) => {
          if (event.type !== 'assistant') return;
          texts.push(event.text);
          // Full after the first 100 lines: the rest stays in the pipe until room is made.
          if (texts.length === 100) full = true;
        },
        backlog: { full: () => full, room: () => new Promise<void>((resolve) => (room = resolve)) },
      },
    );
    void agent.exited.then(() => (exitedAt = texts.length));
    // Held for longer than the output is given after the agent's exit (2 s, then 0.5 s).
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(exitedAt).toBeUndefined();
    expect(texts.length).toBeLessThan(10_000);
    full = false;
    room();
    const exit = await agent.exited;
    expect(exit.code).toBe(0);
    expect(exitedAt).toBe(10_000);
    expect(texts).toEqual(Array.from({ length: 10_000 }, (_, n) => String(n + 1)));
  });
});
