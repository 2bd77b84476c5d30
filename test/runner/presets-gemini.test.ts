// The gemini preset's stream parser on streams Gemini CLI 0.61 printed (captured against the
// conformance suite's Gemini API server): what each event becomes, the session it names, and the
// command line that resumes it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/main/core/agents/events';
import { parseLine, presets } from '../../src/main/core/agents/presets';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/agents');

/** Every event a fixture's stream gives, as [type, what it says]. */
function parse(fixture: string): [string, string][] {
  const parser = presets.gemini.parser();
  const events: AgentEvent[] = [];
  for (const line of fs.readFileSync(path.join(fixtures, fixture), 'utf8').split('\n')) events.push(...parseLine(parser, line));
  events.push(...parser.end());
  return events.map((event): [string, string] => {
    switch (event.type) {
      case 'session':
        return ['session', event.id];
      case 'tool_call':
        return ['tool_call', `${event.name} ${JSON.stringify(event.input)}`];
      case 'tool_result':
        return [event.isError ? 'tool_error' : 'tool_result', event.output];
      case 'usage':
        return ['usage', `${event.inputTokens} in, ${event.outputTokens} out`];
      default:
        return [event.type, event.text];
    }
  });
}

describe('gemini stream-json (0.61)', () => {
  it('names the session, keeps the routing alias out of the start and names the models that answered at the end', () => {
    expect(parse('gemini-tools.jsonl')).toEqual([
      ['session', '096b4949-f3df-45db-9e66-2081ce767fb9'],
      ['system', 'Gemini started'],
      ['assistant', 'I will read the CI log.'],
      ['tool_call', 'run_shell_command {"command":"tail -n 2 ci.log","description":"Show the end of the CI log."}'],
      ['tool_result', 'FAIL test/api.test.ts\n1 failed'],
      ['tool_call', 'read_file {"file_path":"src/missing.ts"}'],
      ['tool_error', 'File not found: /home/me/project/src/missing.ts'],
      ['tool_call', 'write_file {"file_path":"notes/ci.md","content":"One test fails.\\n"}'],
      // write_file reports a diff for the screen and no text: the result still says something.
      ['tool_result', 'write_file succeeded (no output)'],
      ['assistant', 'One test fails in test/api.test.ts; notes are in notes/ci.md.'],
      ['usage', '7120 in, 105 out'],
      ['system', 'Gemini finished (gemini-3.8-flash, gemini-3.5-flash-lite) — 7,120 tokens in, 105 out'],
    ]);
  });

  it('shows a model asked for by name at the start, and the same session when resumed', () => {
    expect(parse('gemini-resumed.jsonl')).toEqual([
      ['session', '096b4949-f3df-45db-9e66-2081ce767fb9'],
      ['system', 'Gemini started (gemini-2.5-flash)'],
      ['assistant', 'test/api.test.ts failed.'],
      ['usage', '2100 in, 8 out'],
      ['system', 'Gemini finished (gemini-2.5-flash) — 2,100 tokens in, 8 out'],
    ]);
  });

  it('reads a warning as a warning', () => {
    const events = parse('gemini-loop.jsonl');
    expect(events.filter(([type]) => type === 'system')).toEqual([
      ['system', 'Gemini started'],
      ['system', 'Gemini warning: Loop detected, stopping execution'],
      ['system', 'Gemini finished (gemini-3.8-flash, gemini-3.5-flash-lite) — 3,650 tokens in, 48 out'],
    ]);
    expect(events.filter(([type]) => type === 'tool_result')).toHaveLength(4);
  });

  it('says why a run failed: the API error in words, or the error event before a result that names none', () => {
    expect(parse('gemini-api-error.jsonl').slice(1)).toEqual([
      ['system', 'Gemini started'],
      // A failed run counts what it used too.
      ['usage', '50 in, 8 out'],
      ['system', 'Gemini failed: API error 400 (INVALID_ARGUMENT): scripted refusal (400)'],
    ]);
    const empty = 'The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again.';
    expect(parse('gemini-empty-response.jsonl').slice(1)).toEqual([
      ['system', 'Gemini started'],
      ['system', `Gemini error: ${empty}`],
      ['usage', '3250 in, 8 out'],
      ['system', `Gemini failed: ${empty}`],
    ]);
  });

  it('resumes a session by its id, after the flags of the fresh command line', () => {
    const args = [...presets.gemini.args, '--model', 'gemini-2.5-flash'];
    expect(presets.gemini.resume?.(args, '096b4949-f3df-45db-9e66-2081ce767fb9')).toEqual([
      '--output-format',
      'stream-json',
      '--yolo',
      '--model',
      'gemini-2.5-flash',
      '--resume',
      '096b4949-f3df-45db-9e66-2081ce767fb9',
    ]);
  });
});
