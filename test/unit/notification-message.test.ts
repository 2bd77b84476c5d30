// Pure pieces of run notifications: which runs a channel wants (cancelled only under `all`),
// the message per kind (a non-ASCII ntfy title as an RFC 2047 word, Slack's escaping, errors cut),
// the Standard Webhooks signature, and how a secret URL is shortened.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, redactUrl } from '../../src/main/core/services/notification-channels';
import { type RunNotice, buildNotification, cutError } from '../../src/main/core/services/notification-message';
import { formatDuration } from '../../src/shared/format';
import { standardHeaders } from '../../src/main/core/services/notification-sender';
import { channelWants } from '../../src/main/core/services/run-notifier';

const run = (status: string, extra: object = {}) => ({ status, source: 'automation', sourceId: 'aut_1', instanceId: 'ins_1', ...extra }) as Parameters<typeof channelWants>[1];

describe('channelWants', () => {
  it('matches outcomes: failures, successes, all (cancelled only there)', () => {
    const wants = (on: 'failures' | 'successes' | 'all', status: string) => channelWants({ on, sources: [] }, run(status));
    expect(['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled', 'running'].filter((status) => wants('failures', status))).toEqual(['failed', 'timed_out', 'interrupted']);
    expect(['succeeded', 'failed', 'cancelled'].filter((status) => wants('successes', status))).toEqual(['succeeded']);
    expect(['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled', 'queued', 'running'].filter((status) => wants('all', status))).toEqual(['succeeded', 'failed', 'timed_out', 'interrupted', 'cancelled']);
  });

  it('attention: failures and needs_attention only; a run with nothing to report tells no channel unless it failed', () => {
    const wants = (on: 'failures' | 'successes' | 'attention' | 'all', status: string, outcome: string | null) => channelWants({ on, sources: [] }, run(status, { outcome }));
    const endings: [string, string | null][] = [['succeeded', null], ['succeeded', 'done'], ['succeeded', 'needs_attention'], ['succeeded', 'nothing_to_report'], ['failed', null], ['failed', 'nothing_to_report'], ['cancelled', 'needs_attention'], ['cancelled', 'nothing_to_report']];
    const told = (on: 'failures' | 'successes' | 'attention' | 'all') => endings.filter(([status, outcome]) => wants(on, status, outcome)).map((ending) => ending.join(':'));
    expect(told('attention')).toEqual(['succeeded:needs_attention', 'failed:', 'failed:nothing_to_report']);
    expect(told('all')).toEqual(['succeeded:', 'succeeded:done', 'succeeded:needs_attention', 'failed:', 'failed:nothing_to_report', 'cancelled:needs_attention']);
    expect(told('successes')).toEqual(['succeeded:', 'succeeded:done', 'succeeded:needs_attention']);
    expect(told('failures')).toEqual(['failed:', 'failed:nothing_to_report']);
  });

  it('limits to listed automations, webhooks and instances', () => {
    const channel = { on: 'all' as const, sources: [{ type: 'webhook' as const, id: 'aut_1' }, { type: 'instance' as const, id: 'ins_2' }] };
    expect(channelWants(channel, run('failed'))).toBe(false);
    expect(channelWants(channel, run('failed', { source: 'webhook', sourceId: 'aut_1' }))).toBe(true);
    expect(channelWants(channel, run('failed', { source: 'chat', sourceId: null, instanceId: 'ins_2' }))).toBe(true);
  });
});

const notice: RunNotice = {
  event: 'run.failed', status: 'failed', runId: 'run_1', error: `boom <b> & ${'x'.repeat(400)}`, source: { type: 'automation', id: 'aut_1', name: 'Nächtlich' },
  instance: { id: 'ins_1', name: 'Default' }, startedAt: null, finishedAt: null, durationSeconds: 125, url: 'http://127.0.0.1:7321/#/runs/run_1', timestamp: '2026-01-01T00:00:00.000Z',
};

describe('buildNotification', () => {
  it('heads a run that needs attention so, with its agent\'s summary', () => {
    const attention: RunNotice = { ...notice, event: 'run.succeeded', status: 'succeeded', error: null, outcome: 'needs_attention', summary: 'Two certificates expire this week.' };
    const { headers, body } = buildNotification('ntfy', attention);
    expect(headers.title).toBe(`=?UTF-8?B?${Buffer.from('Needs attention: Nächtlich').toString('base64')}?=`);
    expect(body.split('\n')[1]).toBe('Two certificates expire this week.');
    expect(JSON.parse(buildNotification('discord', attention).body).content).toContain('**Needs attention: Nächtlich**\nautomation Nächtlich on Default · 2 min 5 s\nTwo certificates expire this week.');
    expect(JSON.parse(buildNotification('webhook', attention).body).data).toMatchObject({ outcome: 'needs_attention', summary: 'Two certificates expire this week.' });
  });

  it('ntfy: an RFC 2047 title when it is not ASCII, high priority for a failure, the error cut', () => {
    const { headers, body } = buildNotification('ntfy', notice);
    expect(headers.title).toBe(`=?UTF-8?B?${Buffer.from('Run failed: Nächtlich').toString('base64')}?=`);
    expect(headers).toMatchObject({ priority: 'high', tags: 'x', click: notice.url });
    expect(body.split('\n')[0]).toBe('automation Nächtlich on Default · 2 min 5 s');
    expect(body.split('\n')[1]).toHaveLength('Error: '.length + 300);
  });

  it('slack escapes &, < and >; a test message links to Steward', () => {
    const text = (JSON.parse(buildNotification('slack', notice).body) as { text: string }).text;
    expect(text).toContain('> boom &lt;b&gt; &amp; x');
    const test = (JSON.parse(buildNotification('slack', { ...notice, event: 'test', status: 'test', runId: null, error: null, url: 'http://127.0.0.1:7321/' }).body) as { text: string }).text;
    expect(text.endsWith('|Open run>')).toBe(true);
    expect(test).toBe('*Test notification from Steward*\nThis channel works: run notifications will arrive here.\n<http://127.0.0.1:7321/|Open Steward>');
  });

  it('helpers: seconds in words, errors on one line', () => {
    expect([400, 59_960, 61_000, 119_600, 3_725_000].map(formatDuration)).toEqual(['400 ms', '1 min 0 s', '1 min 1 s', '2 min 0 s', '1 h 2 min']);
    expect(cutError('a\n  b')).toBe('a b');
    expect(cutError(null)).toBeNull();
  });
});

describe('signing and secrets', () => {
  it('signs so that standardwebhooks verifies, and only with the right secret', () => {
    const secret = newSigningSecret();
    const body = '{"type":"run.failed"}';
    const headers = standardHeaders(secret, 'ntf_1', Date.now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ type: 'run.failed' });
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('shortens a secret URL to its scheme, host and first segment', () => {
    expect(redactUrl('https://hooks.slack.com/services/T0/B0/secret')).toBe('https://hooks.slack.com/services/…');
    expect(redactUrl('https://discord.com/api/webhooks/1/token')).toBe('https://discord.com/api/…');
    expect(redactUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/…');
  });
});
