// The claude-code preset's stream parser on streams recorded from the real `claude -p
// --output-format stream-json --verbose` 2.1.330 (test/fixtures/agents/claude-code-*.jsonl; paths
// rewritten to /home/me), plus claude-code-notices.jsonl, written from the CLI's own schemas for
// the notices a scripted server cannot provoke: what each line becomes, and when; and its resume
// command line.
import { describe, expect, it } from 'vitest';
import { presets } from '../../src/main/core/agents/presets';
import { fixtureLines, parseLines as parseStream, shown, transcriptOf } from '../support/preset-streams';

const claude = presets['claude-code'];
const parseLines = (lines: string[]) => parseStream(claude, lines);
const linesOf = fixtureLines;
const transcript = (fixture: string) => transcriptOf(claude, fixture);

describe('claude code stream', () => {
  it('reads a run with a retry, thinking, tools, a failed command and a background task, with its two results', () => {
    expect(transcript('claude-code-tools.jsonl')).toEqual([
      'session 99e916f7-61ec-4f37-846f-fb23ef0ad831',
      'system Claude Code started (claude-sonnet-4-5)',
      'system Claude Code is retrying (attempt 1/10 in 0.5 s): the API is overloaded (HTTP 529)',
      'system Claude Code thinking: A note is wanted; the Write tool makes it.',
      'assistant I will write the note.',
      'call Write {"file_path":"note.txt","content":"hi\\n"}',
      'result File created successfully at: note.txt (file state is current in your context — no need to Read it back)',
      'call Bash {"command":"cat missing.txt","description":"Read a missing file"}',
      'error Exit code 1\ncat: missing.txt: No such file or directory',
      'call Bash {"command":"echo bg && sleep 1","description":"Background echo","run_in_background":true}',
      'system Claude Code started a background task: Background echo',
      expect.stringMatching(/^result Command running in background with ID: bcwqh3iol\./),
      'assistant Wrote note.txt.',
      // Input: uncached, cache writes and cache reads together (1,570 + 3,000 + 13,200).
      'system Claude Code finished — 17,770 tokens in, 93 out, $0.0213, 4 turns',
      // The background command's notice wakes the model for one more turn, in the same process.
      'system Claude Code background task completed: Background command "Background echo" completed (exit code 0)',
      'assistant The background echo finished.',
      'system Claude Code finished — 4,790 tokens in, 9 out, $0.0018, 1 turn',
    ]);
  });

  it('says a retry the moment its line arrives, and names the session once although init comes again', () => {
    const lines = linesOf('claude-code-tools.jsonl');
    const retry = lines.findIndex((line) => line.includes('"subtype":"api_retry"'));
    expect(parseLines(lines)[retry].map(shown)).toEqual(['system Claude Code is retrying (attempt 1/10 in 0.5 s): the API is overloaded (HTTP 529)']);
    expect(lines.filter((line) => line.includes('"subtype":"init"'))).toHaveLength(2);
    expect(transcript('claude-code-tools.jsonl').filter((line) => line.startsWith('session') || line.includes('started ('))).toHaveLength(2);
  });

  it('leaves out what only a UI needs: thinking-token estimates, task bookkeeping, a foreground task', () => {
    const lines = linesOf('claude-code-tools.jsonl');
    for (const subtype of ['thinking_tokens', 'background_tasks_changed', 'task_updated']) {
      const at = lines.findIndex((line) => line.includes(`"subtype":"${subtype}"`));
      expect(at, subtype).toBeGreaterThan(-1);
      expect(parseLines(lines)[at], subtype).toEqual([]);
    }
    const foreground = { type: 'system', subtype: 'task_started', task_id: 'b1', tool_use_id: 'toolu_1', description: 'Wait a bit', is_backgrounded: false, task_type: 'local_bash' };
    const done = { type: 'system', subtype: 'task_notification', task_id: 'b1', tool_use_id: 'toolu_1', status: 'completed', output_file: '', summary: 'Wait a bit' };
    expect(parseLines([foreground, done].map((line) => JSON.stringify(line))).flat()).toEqual([]);
  });

  it('says a failed API call once: the CLI’s synthetic answer is a system line, and the result only adds that the run failed', () => {
    expect(transcript('claude-code-api-error.jsonl')).toEqual([
      'session f08c10bf-5735-4247-a6a7-fe868fb84c3f',
      'system Claude Code started (claude-opus-5-5)',
      'system Claude Code: API Error: 400 scripted invalid_request_error (400)',
      'system Claude Code failed — 0 tokens in, 0 out, $0.0000, 1 turn',
    ]);
  });

  it('reads the reason of an error result from `errors`: turn limit, unknown session', () => {
    expect(transcript('claude-code-max-turns.jsonl').at(-1)).toBe('system Claude Code failed: Reached maximum number of turns (1) — 100 tokens in, 10 out, $0.0006, 2 turns');
    expect(transcript('claude-code-no-session.jsonl')).toEqual([
      'system Claude Code failed: No conversation found with session ID: 11111111-2222-3333-4444-555555555555 — 0 tokens in, 0 out, $0.0000, 0 turns',
    ]);
  });

  it('gives a resumed run its own cost, not the session’s running total', () => {
    const result = JSON.parse(linesOf('claude-code-resumed.jsonl').at(-1)!);
    expect(result.total_cost_usd).toBeCloseTo(0.0102);
    expect(transcript('claude-code-resumed.jsonl')).toEqual([
      'session 6346bcb3-b224-489c-b90a-06e85757f8f3',
      'system Claude Code started (claude-opus-5-5)',
      'assistant You asked for a note.',
      'system Claude Code finished — 100 tokens in, 10 out, $0.0006, 1 turn',
    ]);
  });

  it('shows a compaction (a /compact prompt) as it starts and as it ends', () => {
    expect(transcript('claude-code-compact.jsonl')).toEqual([
      'system Claude Code is compacting the conversation',
      'session 99308cff-bbef-4f21-be6c-8a3b4b7a6219',
      'system Claude Code started (claude-sonnet-4-5)',
      'system Claude Code compacted the conversation (manual, 142 → 2,594 tokens)',
      'system Claude Code finished — 0 tokens in, 0 out, $0.0009, 0 turns',
    ]);
  });

  it('reads the notices a user would want: retries without a response, fallbacks, usage limits, compaction, denials, lost writes', () => {
    expect(transcript('claude-code-notices.jsonl')).toEqual([
      'session 99e916f7-0000-4000-8000-000000000001',
      'system Claude Code started (claude-sonnet-4-5)',
      'system Claude Code is retrying (attempt 2/10 in 1.1 s): could not connect',
      'system Claude Code is retrying (attempt 1/1): no response within 90 s',
      'system Claude Code is retrying (attempt 3/10 in 2.3 s): rate limited (HTTP 429)',
      'system Claude Code switched from claude-opus-4-5 to claude-sonnet-4-5 (overloaded)',
      'system Claude Code is near its usage limit (five hour): 91% used',
      'system Claude Code is compacting the conversation',
      'system Claude Code could not compact the conversation: Conversation too long to summarize',
      'system Claude Code compacted the conversation (auto, 183,412 tokens before)',
      'system Claude Code: Context low (8% remaining)',
      'system Claude Code warning: Stop hook prevented continuation',
      'system Claude Code was not allowed to use WebFetch',
      'system Claude Code hit its usage limit (five hour) until 2026-11-23T13:20:00.000Z',
      'system Claude Code could not save its session (ENOSPC): a later run of this thread may miss part of it',
    ]);
  });
});

describe('claude code resume', () => {
  it('adds --resume <session_id> after every flag, the config’s too; the prompt stays on stdin', () => {
    const args = [...claude.args, '--model', 'claude-sonnet-4-5'];
    expect(claude.resume!(args, '6346bcb3-b224-489c-b90a-06e85757f8f3')).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      '--model',
      'claude-sonnet-4-5',
      '--resume',
      '6346bcb3-b224-489c-b90a-06e85757f8f3',
    ]);
  });
});
