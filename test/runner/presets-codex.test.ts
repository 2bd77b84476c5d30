// The codex preset's stream parser on streams recorded from the real `codex exec --json` 0.169
// (test/fixtures/agents/codex-*.jsonl): what each line becomes, and when; and its resume command line.
import { describe, expect, it } from 'vitest';
import { presets } from '../../src/main/core/agents/presets';
import { fixtureLines, parseLines as parseStream, shown, transcriptOf } from '../support/preset-streams';

const { codex } = presets;
const parseLines = (lines: string[]) => parseStream(codex, lines);
const linesOf = fixtureLines;
const transcript = (fixture: string) => transcriptOf(codex, fixture);

describe('codex stream', () => {
  it('reads every item kind 0.169 emits: session, warnings, reasoning, plan, patch, MCP and shell calls, usage', () => {
    expect(transcript('codex-tools.jsonl')).toEqual([
      'session 01a2081b-de2d-7b60-a1bb-1791c810aeb2',
      'system Codex started (thread 01a2081b-de2d-7b60-a1bb-1791c810aeb2)',
      'system Codex warning: Model metadata for `test-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.',
      'system Codex reasoning: **Planning the greeting**',
      'system Codex plan:\n[ ] Write the greeting\n[ ] Check it',
      'call apply_patch {"changes":[{"path":"/home/me/project/hello.txt","kind":"add"}]}',
      'result add /home/me/project/hello.txt',
      'call echo.shout {"text":"hello"}',
      'result HELLO',
      'call shell {"command":"/bin/bash -lc \'cat missing.txt\'"}',
      'error cat: missing.txt: No such file or directory\n',
      'system Codex plan:\n[x] Write the greeting\n[x] Check it',
      'assistant Wrote hello.txt.',
      'system Codex finished — 7,500 tokens in, 115 out',
    ]);
  });

  it('shows a command as a tool call the moment it starts, and its completion gives only the result', () => {
    const lines = linesOf('codex-tools.jsonl');
    const start = lines.findIndex((line) => line.includes('"item.started"') && line.includes('command_execution'));
    const [atStart, atCompletion] = parseLines(lines).slice(start, start + 2);
    expect(atStart.map(shown)).toEqual(['call shell {"command":"/bin/bash -lc \'cat missing.txt\'"}']);
    expect(atCompletion.map(shown)).toEqual(['error cat: missing.txt: No such file or directory\n']);
  });

  it('gives call and result together for a tool item that only completes', () => {
    const item = { id: 'item_9', type: 'command_execution', command: "bash -lc 'ls'", aggregated_output: 'a.txt\n', exit_code: 0, status: 'completed' };
    expect(parseLines([JSON.stringify({ type: 'item.completed', item })]).flat().map(shown)).toEqual(['call shell {"command":"bash -lc \'ls\'"}', 'result a.txt\n']);
  });

  it('reads a failed MCP call as an error result (shape from codex-rs exec_events.rs)', () => {
    const item = { id: 'item_3', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, result: null, error: { message: 'server exited' }, status: 'failed' };
    const lines = [{ type: 'item.started', item: { ...item, error: null, status: 'in_progress' } }, { type: 'item.completed', item }].map((line) => JSON.stringify(line));
    expect(parseLines(lines).map((events) => events.map(shown))).toEqual([['call docs.search {"q":"x"}'], ['error server exited'], []]);
  });

  it('reads a retry notice as a warning, at once, in a run that goes on to succeed', () => {
    const lines = linesOf('codex-retry.jsonl');
    const notice = lines.findIndex((line) => line.startsWith('{"type":"error"'));
    expect(parseLines(lines)[notice].map(shown)).toEqual(['system Codex warning: Reconnecting... 1/1 (We’re currently experiencing high demand, which may cause temporary errors.)']);
    const all = transcript('codex-retry.jsonl');
    expect(all.filter((line) => /failed|Codex error/.test(line))).toEqual([]);
    expect(all.at(-1)).toBe('system Codex finished — 1,100 tokens in, 30 out');
  });

  it('reads a fatal error once, as the failure, with the provider message unwrapped', () => {
    expect(transcript('codex-failed.jsonl').slice(3)).toEqual(['system Codex failed: scripted refusal (400)']);
  });

  it('reads any other top-level error by what follows it: a warning if the run goes on, a failure if the stream ends on it', () => {
    const error = JSON.stringify({ type: 'error', message: 'rollout writer lagging' });
    const message = JSON.stringify({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Still here.' } });
    expect(parseLines([error, message]).map((events) => events.map(shown))).toEqual([[], ['system Codex warning: rollout writer lagging', 'assistant Still here.'], []]);
    expect(parseLines([error]).map((events) => events.map(shown))).toEqual([[], ['system Codex failed: rollout writer lagging']]);
    const failed = JSON.stringify({ type: 'turn.failed', error: { message: 'turn failed' } });
    expect(parseLines([error, failed]).flat().map(shown)).toEqual(['system Codex error: rollout writer lagging', 'system Codex failed: turn failed']);
  });
});

describe('codex resume', () => {
  it('moves the stdin prompt after `resume <thread_id>` and keeps every flag, the config’s too, before it', () => {
    const args = [...codex.args, '-m', 'qwen3-coder', '-c', 'model_reasoning_effort="low"'];
    expect(codex.resume!(args, '01a2081b-de2d-7b60-a1bb-1791c810aeb2')).toEqual([
      'exec',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      '--skip-git-repo-check',
      '-m',
      'qwen3-coder',
      '-c',
      'model_reasoning_effort="low"',
      'resume',
      '01a2081b-de2d-7b60-a1bb-1791c810aeb2',
      '-',
    ]);
  });
});
