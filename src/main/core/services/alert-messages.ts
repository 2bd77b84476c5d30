// What an approval request and one of Steward's notices say on each channel kind: ntfy with its
// action buttons (Allow and Deny POST to the decision links, a third opens the run), Slack and
// Discord with both links, the signed webhook with the approval and its links in `data`. Pure,
// like notification-message.ts: the delivery stores what this builds and sends it as it is.
import type { Approval, ChannelKind } from '../../../shared/contract';
import { oneLine } from '../../../shared/format';
import { describeWait } from './approval-records';
import { type NotificationRequest, discordEscape, headerText, slackEscape } from './notification-message';

export interface ApprovalAlert {
  approval: Approval & { links: NonNullable<Approval['links']> };
  /** Who asks: the automation, webhook, chat or API run, on its instance. */
  asker: string;
  /** The run's page. */
  url: string;
  timestamp: string;
}

export interface NoticeAlert {
  /** automation.unhealthy, steward.was_off… */
  event: string;
  kind: string;
  title: string;
  body: string;
  instanceId: string;
  automationId: string | null;
  /** Where Steward shows it. */
  url: string;
  timestamp: string;
}

const json = (body: unknown): NotificationRequest => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The request in words: what is asked, the command or file or URL, the options, until when. */
function request(alert: ApprovalAlert): string[] {
  const { detail } = alert.approval;
  const lines = [`${alert.asker} asks: ${oneLine(detail.text)}`];
  if (detail.command) lines.push(`Command: ${oneLine(detail.command)}`);
  if (detail.path) lines.push(`File: ${detail.path}`);
  if (detail.url) lines.push(`URL: ${detail.url}`);
  if (detail.options) lines.push(`Options: ${detail.options.join(', ')}`);
  const seconds = Math.round((Date.parse(alert.approval.expiresAt) - Date.parse(alert.approval.createdAt)) / 1000);
  lines.push(`Unanswered within ${describeWait(seconds)}, it is ${alert.approval.kind === 'run' ? 'cancelled' : 'denied'}.`);
  return lines;
}

const approvalTitle = (alert: ApprovalAlert) => `Steward asks: ${alert.approval.title}`;

function approvalMessage(kind: ChannelKind, alert: ApprovalAlert): NotificationRequest {
  const { links } = alert.approval;
  switch (kind) {
    case 'webhook':
      return json({ type: 'approval.requested', timestamp: alert.timestamp, data: { approval: alert.approval, links, url: alert.url } });
    case 'ntfy':
      // ntfy's simple action format: `<action>, <label>, <url>[, key=value]`, separated by `;` (three at most).
      return {
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: headerText(approvalTitle(alert)),
          priority: 'high',
          tags: 'raised_hand',
          click: alert.url,
          actions: `http, Allow, ${links.allow}, method=POST, clear=true; http, Deny, ${links.deny}, method=POST, clear=true; view, Open run, ${alert.url}`,
        },
        body: request(alert).join('\n'),
      };
    case 'slack':
      return json({ text: [`*${slackEscape(approvalTitle(alert))}*`, ...request(alert).map(slackEscape), `<${links.allow}|Allow> · <${links.deny}|Deny> · <${alert.url}|Open run>`].join('\n') });
    case 'discord':
      return json({ content: [`**${discordEscape(approvalTitle(alert))}**`, ...request(alert).map(discordEscape), `Allow: ${links.allow}`, `Deny: ${links.deny}`, alert.url].join('\n'), allowed_mentions: { parse: [] } });
  }
}

function noticeMessage(kind: ChannelKind, alert: NoticeAlert): NotificationRequest {
  const { event, timestamp, title, body, url } = alert;
  switch (kind) {
    case 'webhook':
      return json({ type: event, timestamp, data: { kind: alert.kind, title, body, instanceId: alert.instanceId, automationId: alert.automationId, url } });
    case 'ntfy':
      return { headers: { 'content-type': 'text/plain; charset=utf-8', title: headerText(title), priority: event === 'automation.recovered' ? 'default' : 'high', tags: event === 'automation.recovered' ? 'white_check_mark' : 'warning', click: url }, body: `${body}\n${url}` };
    case 'slack':
      return json({ text: `*${slackEscape(title)}*\n${slackEscape(body)}\n<${url}|Open Steward>` });
    case 'discord':
      return json({ content: `**${discordEscape(title)}**\n${discordEscape(body)}\n${url}`, allowed_mentions: { parse: [] } });
  }
}

export { approvalMessage, noticeMessage };
