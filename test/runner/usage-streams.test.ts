// What each preset's recorded stream says a run used, as totals so far: the runner stores the last
// and holds it to usdPerRun. Claude Code's result lines (its cost of this run alone), Codex's
// turn.completed (tokens only), Gemini's result stats (tokens only) and OpenCode's step_finish
// (cost and tokens summed over steps).
import { describe, expect, it } from 'vitest';
import { presets } from '../../src/main/core/agents/presets';
import { parseLines, usageOf } from '../support/preset-streams';

describe('usage from recorded streams', () => {
  it("takes Claude Code's result: this run's cost, and all the input the model read (cached too)", () => {
    expect(usageOf(presets['claude-code'], 'claude-code.jsonl')).toEqual([{ costUsd: 0.0123, inputTokens: 1234, outputTokens: 567 }]);
    const [resumed] = usageOf(presets['claude-code'], 'claude-code-resumed.jsonl');
    expect(resumed.costUsd).toBeCloseTo(0.0006);
  });

  it('adds up Claude Code results of one run (a background task makes another turn) by their cost since the last result', () => {
    const result = (cost: number, input: number) =>
      JSON.stringify({ type: 'result', subtype: 'success', total_cost_usd: 99, model_usage_since_last_result: { 'claude-sonnet-4-5': { costUSD: cost } }, usage: { input_tokens: input, cache_read_input_tokens: 10, output_tokens: 5 } });
    const events = parseLines(presets['claude-code'], [result(0.25, 100), result(0.3, 200)]).flat().filter((event) => event.type === 'usage');
    expect(events.map(({ costUsd, inputTokens, outputTokens }) => ({ costUsd, inputTokens, outputTokens }))).toEqual([
      { costUsd: 0.25, inputTokens: 110, outputTokens: 5 },
      { costUsd: 0.55, inputTokens: 320, outputTokens: 10 },
    ]);
  });

  it('counts tokens only for Codex and Gemini, and nothing for a stream that reports none', () => {
    expect(usageOf(presets.codex, 'codex.jsonl')).toEqual([{ inputTokens: 24763, outputTokens: 122, costUsd: undefined }]);
    expect(usageOf(presets.codex, 'codex-failed.jsonl')).toEqual([]);
    expect(usageOf(presets.gemini, 'gemini.jsonl')).toEqual([{ inputTokens: 1650, outputTokens: 151, costUsd: undefined }]);
  });

  it("sums OpenCode's steps as they finish, so that a long run's spend shows while it runs", () => {
    const reports = usageOf(presets.opencode, 'opencode-tools.jsonl');
    expect(reports.map((report) => [report.inputTokens, report.outputTokens])).toEqual([[1000, 50], [2100, 90], [3250, 110], [4450, 140]]);
    expect(reports.at(-1)!.costUsd).toBeCloseTo(0.01545);
  });
});
