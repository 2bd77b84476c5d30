// Pure pieces of approval and notice notifications: which channels hear of them (all but those of
// successes, within their sources), ntfy's title as an RFC 2047 word when it is not ASCII and its
// three actions, Slack's escaping and Discord's muted mentions whatever the agent asked.
import { describe, expect, it } from 'vitest';
import { approvalMessage } from '../../src/main/core/services/alert-messages';
import { requestedApprovalId, sourcesMatch, wantsAlerts } from '../../src/main/core/services/alerts';
import type { ApprovalAlert } from '../../src/main/core/services/alert-messages';

const alert = (title: string, text: string): ApprovalAlert => ({
  approval: {
    id: 'apr_1', runId: 'run_1', instanceId: 'ins_1', kind: 'tool', title, detail: { text, command: 'rm -rf build' }, status: 'pending', decidedBy: null, answer: null, note: null,
    createdAt: '2026-11-25T10:00:00.000Z', expiresAt: '2026-11-25T10:10:00.000Z', decidedAt: null, links: { allow: 'https://t.example/api/approvals/links/A', deny: 'https://t.example/api/approvals/links/D' },
  },
  asker: 'The automation Nightly on Builder',
  url: 'https://t.example/#/runs/run_1',
  timestamp: '2026-11-25T10:00:00.000Z',
});

describe('who hears of approvals and notices', () => {
  it('every channel but those of successes, within its sources', () => {
    expect((['failures', 'successes', 'attention', 'all'] as const).filter((on) => wantsAlerts({ on }))).toEqual(['failures', 'attention', 'all']);
    const subject = { source: { type: 'automation', id: 'aut_1' }, instanceId: 'ins_1' };
    expect(sourcesMatch({ sources: [] }, subject)).toBe(true);
    expect(sourcesMatch({ sources: [{ type: 'automation', id: 'aut_1' }] }, subject)).toBe(true);
    expect(sourcesMatch({ sources: [{ type: 'webhook', id: 'aut_1' }, { type: 'instance', id: 'ins_2' }] }, subject)).toBe(false);
    expect(sourcesMatch({ sources: [{ type: 'instance', id: 'ins_1' }] }, { instanceId: 'ins_1' })).toBe(true);
  });

  it('reads the approval id off an approval.requested line only', () => {
    expect(requestedApprovalId('{"type":"approval.requested","approvalId":"apr_1","kind":"tool"}')).toBe('apr_1');
    expect(requestedApprovalId('{"type":"approval.decided","approvalId":"apr_1"}')).toBeUndefined();
    expect(requestedApprovalId('plain text')).toBeUndefined();
  });
});

describe('the approval message', () => {
  it('ntfy: a non-ASCII title as an encoded word, Allow and Deny POSTing to the links, Open run', () => {
    const { headers, body } = approvalMessage('ntfy', alert('Lösche den Build-Ordner?', 'Clean up'));
    expect(headers.title).toBe(`=?UTF-8?B?${Buffer.from('Steward asks: Lösche den Build-Ordner?').toString('base64')}?=`);
    expect(headers.actions).toBe('http, Allow, https://t.example/api/approvals/links/A, method=POST, clear=true; http, Deny, https://t.example/api/approvals/links/D, method=POST, clear=true; view, Open run, https://t.example/#/runs/run_1');
    expect(body).toBe('The automation Nightly on Builder asks: Clean up\nCommand: rm -rf build\nUnanswered within 10 min, it is denied.');
  });

  it('Slack escapes what the agent wrote; Discord mentions no one', () => {
    const slack = JSON.parse(approvalMessage('slack', alert('Ping <!channel>?', 'a & b')).body).text as string;
    expect(slack).toContain('*Steward asks: Ping &lt;!channel&gt;?*');
    expect(slack).toContain('asks: a &amp; b');
    const discord = JSON.parse(approvalMessage('discord', alert('@everyone deploy?', 'x')).body);
    expect(discord.allowed_mentions).toEqual({ parse: [] });
  });

  it('Discord: what a sender or an agent wrote cannot pass for a button or a heading of ours', () => {
    const content = JSON.parse(approvalMessage('discord', alert('**Urgent**', 'routine check [Deny (safe)](https://evil.example/deny) `ok`\n# Allow: https://evil.example/a')).body).content as string;
    expect(content).not.toContain('[Deny (safe)](');
    expect(content).toContain('\\[Deny (safe)\\](https://evil.example/deny)');
    expect(content).toContain('**Steward asks: \\*\\*Urgent\\*\\***');
    // The real links are ours, on lines of their own, unescaped.
    expect(content.split('\n').filter((line) => /^(Allow|Deny): /.test(line))).toEqual(['Allow: https://t.example/api/approvals/links/A', 'Deny: https://t.example/api/approvals/links/D']);
  });
});
