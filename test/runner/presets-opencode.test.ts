// The opencode preset's stream parser on streams recorded from the real `opencode run --format
// json` 1.18.33 (test/fixtures/agents/opencode-*.jsonl): what each line becomes, and when; its
// command line, and the one that resumes a session.
import { describe, expect, it } from 'vitest';
import { presets } from '../../src/main/core/agents/presets';
import { fixtureLines, parseLines as parseStream, shown, transcriptOf } from '../support/preset-streams';

const { opencode } = presets;
const session = 'ses_df7dea323ffeZx6yj6gwbFacKR';
const parseLines = (lines: string[]) => parseStream(opencode, lines);
const linesOf = fixtureLines;
const transcript = (fixture: string) => transcriptOf(opencode, fixture);

describe('opencode stream', () => {
  it('reads what 1.18 prints: session, reasoning, text, completed and failed tools, steps summed into the last line', () => {
    expect(transcript('opencode-tools.jsonl')).toEqual([
      `session ${session}`,
      'system OpenCode reasoning: The user wants a greeting file.',
      "assistant I'll write the greeting.",
      'call write {"filePath":"hello.txt","content":"Hello!\\n"}',
      'result Wrote file successfully.',
      'call bash {"command":"cat hello.txt && wc -c hello.txt","description":"Check the greeting"}',
      'result Hello!\n7 hello.txt\n',
      'call read {"filePath":"missing.txt"}',
      'error File not found: /tmp/oc/project/missing.txt',
      'assistant Wrote hello.txt; it says Hello!',
      // Four steps: 1,000 + 1,100 + 1,150 + 1,200 in, 50 + 40 + 20 + 30 out, $0.00375 + $0.0039 + $0.00375 + $0.00405.
      'system OpenCode finished — 4,450 tokens in, 140 out, $0.0155',
    ]);
  });

  it('names the session once, from the first line', () => {
    const events = parseLines(linesOf('opencode-tools.jsonl'));
    expect(events[0].map(shown)).toEqual([`session ${session}`]);
    expect(events.flat().filter((event) => event.type === 'session')).toHaveLength(1);
  });

  it('continues a session with --session, and its stream names the same session', () => {
    expect(opencode.resume?.(['run', '--format', 'json', '--model', 'local/coder-1'], session)).toEqual(['run', '--format', 'json', '--model', 'local/coder-1', '--session', session]);
    expect(transcript('opencode-resumed.jsonl')).toEqual([`session ${session}`, 'assistant Still Hello!', 'system OpenCode finished — 100 tokens in, 20 out, $0.0006']);
  });

  it('turns an error into a failure line with what was spent before it', () => {
    expect(transcript('opencode-error.jsonl').slice(-1)).toEqual(['system OpenCode failed: scripted 400 (APIError, HTTP 400) — 900 tokens in, 25 out, $0.0031']);
  });

  it('warns when the reply was cut short, and when the stream ends before the model finished', () => {
    expect(transcript('opencode-length.jsonl').slice(-1)).toEqual(["system OpenCode stopped: the model's reply hit its output token limit — 500 tokens in, 4,096 out, $0.0629"]);
    // Without --auto, `run` rejects what would ask (here reading .env) and ends the session, exit code 0.
    expect(transcript('opencode-rejected.jsonl').slice(-3)).toEqual([
      'call read {"filePath":".env"}',
      'error The user rejected permission to use this specific tool call.',
      'system OpenCode stopped before the model finished — 100 tokens in, 20 out, $0.0006',
    ]);
  });

  it('shows a tool when it starts if the stream says so, and its completion adds only the result', () => {
    // 1.18 prints tools once they end; the server's own event stream also has them pending and running.
    const completed = linesOf('opencode-tools.jsonl').find((line) => line.includes('"tool":"bash"'))!;
    const running = JSON.parse(completed);
    running.part.state = { status: 'running', input: running.part.state.input, time: { start: running.part.state.time.start } };
    const [atStart, atCompletion] = parseLines([JSON.stringify(running), completed]);
    expect(atStart.map(shown)).toEqual([`session ${session}`, 'call bash {"command":"cat hello.txt && wc -c hello.txt","description":"Check the greeting"}']);
    expect(atCompletion.map(shown)).toEqual(['result Hello!\n7 hello.txt\n']);
  });

  it('marks a shell command that exited non-zero as an error', () => {
    const line = JSON.parse(linesOf('opencode-tools.jsonl').find((each) => each.includes('"tool":"bash"'))!);
    line.part.state.metadata.exit = 1;
    expect(parseLines([JSON.stringify(line)]).flat().filter((event) => event.type === 'tool_result')).toMatchObject([{ isError: true }]);
  });

  it('runs unattended: JSON events, asking tools approved, no model call spent on a title', () => {
    expect(opencode.command).toBe('opencode');
    expect(opencode.args).toEqual(['run', '--format', 'json', '--title', '--auto']);
  });
});
