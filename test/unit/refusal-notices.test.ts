// Which refusals a run's feed says: the CLI's own telemetry is counted, never said; any other is
// said once a day per instance and host (this machine's services once per port: each is its own
// fix), whichever run meets it; nothing after a run ended; and the memory of what was said stays
// bounded however many hosts are refused.
import { describe, expect, it } from 'vitest';
import { createRefusalNotices } from '../../src/main/core/runner/refusal-notices';
import { isTelemetry } from '../../src/main/core/sandbox/telemetry-hosts';
import { ManualClock } from '../support/clock';

const refusal = (host: string, port = 443, allow: string | undefined = host) => ({ host, port, why: 'not listed', ...(allow === undefined ? {} : { allow }) });

describe("a run's refusals", () => {
  it("count each CLI's own telemetry, and only its own", () => {
    const notices = createRefusalNotices(new ManualClock('2030-01-01T00:00:00Z'));
    const codex = notices.open('ins_a', 'codex');
    expect(codex.refused(refusal('ab.chatgpt.com'))).toBe(false);
    expect(codex.refused(refusal('AB.ChatGPT.com.'))).toBe(false);
    expect(codex.refused(refusal('o33249.ingest.us.sentry.io'))).toBe(false);
    // Gemini's telemetry is not Codex's: a Codex run reaching for it is news.
    expect(codex.refused(refusal('play.googleapis.com'))).toBe(true);
    expect(codex.end()).toEqual({ telemetry: { 'ab.chatgpt.com:443': 1, 'AB.ChatGPT.com.:443': 1, 'o33249.ingest.us.sentry.io:443': 1 }, saidBefore: {} });
    expect(['claude-code', 'gemini', 'opencode'].map((preset) => ['http-intake.logs.us5.datadoghq.com', 'play.googleapis.com', 'models.opencode.ai'].filter((host) => isTelemetry(preset, host)))).toEqual([
      ['http-intake.logs.us5.datadoghq.com'],
      ['play.googleapis.com'],
      ['models.opencode.ai'],
    ]);
    // Hosts a task needs as much as the CLI does are never quiet.
    for (const host of ['github.com', 'api.github.com', 'registry.npmjs.org', 'chatgpt.com', 'api.anthropic.com']) expect(isTelemetry('codex', host) || isTelemetry('opencode', host) || isTelemetry('claude-code', host), host).toBe(false);
  });

  it('say a host once a day per instance, whichever run meets it', () => {
    const clock = new ManualClock('2030-01-01T09:00:00Z');
    const notices = createRefusalNotices(clock);
    const first = notices.open('ins_a', 'custom');
    expect(first.refused(refusal('evil.example'))).toBe(true);
    expect(first.refused(refusal('evil.example', 80))).toBe(false);
    expect(first.end()).toEqual({ telemetry: {}, saidBefore: { 'evil.example:80': 1 } });
    clock.advance(23 * 60 * 60 * 1000);
    const second = notices.open('ins_a', 'custom');
    expect(second.refused(refusal('evil.example'))).toBe(false);
    // Another instance has not been told.
    expect(notices.open('ins_b', 'custom').refused(refusal('evil.example'))).toBe(true);
    clock.advance(60 * 60 * 1000);
    expect(second.refused(refusal('evil.example'))).toBe(true);
  });

  it("say this machine once per port, however the run spelled it, and what nothing would allow once per host", () => {
    const run = createRefusalNotices(new ManualClock('2030-01-01T00:00:00Z')).open('ins_a', 'custom');
    expect(run.refused(refusal('127.0.0.1', 8080, '127.0.0.1:8080'))).toBe(true);
    expect(run.refused(refusal('::ffff:7f00:1', 8080, '127.0.0.1:8080'))).toBe(false);
    expect(run.refused(refusal('0x7f.1', 8081, '127.0.0.1:8081'))).toBe(true);
    expect(run.refused(refusal('169.254.169.254', 80, undefined))).toBe(true);
    expect(run.refused(refusal('169.254.169.254', 8080, undefined))).toBe(false);
  });

  it('say nothing, and count nothing, once the run ended', () => {
    const run = createRefusalNotices(new ManualClock('2030-01-01T00:00:00Z')).open('ins_a', 'codex');
    expect(run.end()).toBeUndefined();
    expect(run.refused(refusal('late.example'))).toBe(false);
    expect(run.refused(refusal('ab.chatgpt.com'))).toBe(false);
    expect(run.end()).toBeUndefined();
  });

  it('forget the oldest said first, keeping only so many', () => {
    const notices = createRefusalNotices(new ManualClock('2030-01-01T00:00:00Z'), 3);
    const run = notices.open('ins_a', 'custom');
    for (const host of ['a.example', 'b.example', 'c.example', 'd.example']) expect(run.refused(refusal(host))).toBe(true);
    // a.example was forgotten to make room; b, c and d are remembered.
    expect(['b.example', 'c.example', 'd.example', 'a.example'].map((host) => run.refused(refusal(host)))).toEqual([false, false, false, true]);
    // Saying a.example again made room by forgetting b.example, the oldest then.
    expect(run.refused(refusal('b.example'))).toBe(true);
  });
});
