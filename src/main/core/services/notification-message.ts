// What a notification says, once per kind: the run's source, instance, status, duration, error,
// the outcome its agent reported with its summary, and link, as a Standard Webhooks JSON event, an ntfy message with its headers, or a Slack or Discord
// incoming-webhook message. Pure: the delivery stores what this builds and sends it as it is.
import type { ChannelKind } from '../../../shared/contract';
import { formatDuration, oneLine } from '../../../shared/format';

export interface RunNotice {
  /** run.<status>, or test. */
  event: string;
  status: string;
  runId: string | null;
  error: string | null;
  /** What the agent reported came of the run (report_outcome), and its summary; absent for a test. */
  outcome?: string | null;
  summary?: string | null;
  source: { type: string; id: string | null; name: string };
  instance: { id: string; name: string } | null;
  startedAt: string | null;
  finishedAt: string | null;
  durationSeconds: number | null;
  /** The run's page (or, for a test, Steward's). */
  url: string;
  timestamp: string;
}

export interface NotificationRequest {
  headers: Record<string, string>;
  body: string;
}

export const cutError = (error: string | null): string | null => (error === null ? null : oneLine(error));

const succeeded = (notice: RunNotice) => notice.status === 'succeeded' || notice.status === 'test';

function headline(notice: RunNotice): string {
  if (notice.event === 'test') return 'Test notification from Steward';
  if (notice.status === 'succeeded' && notice.outcome === 'needs_attention') return `Needs attention: ${notice.source.name}`;
  return `Run ${notice.status.replace('_', ' ')}: ${notice.source.name}`;
}

/** The agent's summary, as a line of its own (cut like an error). */
const summaryLines = (notice: RunNotice): string[] => (notice.summary ? [oneLine(notice.summary)] : []);

function details(notice: RunNotice): string {
  if (notice.event === 'test') return 'This channel works: run notifications will arrive here.';
  const where = notice.source.type === 'automation' || notice.source.type === 'webhook' ? `${notice.source.type} ${notice.source.name}` : notice.source.name;
  const parts = [notice.instance ? `${where} on ${notice.instance.name}` : where];
  if (notice.durationSeconds !== null) parts.push(formatDuration(notice.durationSeconds * 1000));
  return parts.join(' · ');
}

function webhookEvent(notice: RunNotice): NotificationRequest {
  const { event, timestamp, runId, status, error, outcome = null, summary = null, source, instance, startedAt, finishedAt, durationSeconds, url } = notice;
  const body = JSON.stringify({ type: event, timestamp, data: { runId, status, error, outcome, summary, source, instance, startedAt, finishedAt, durationSeconds, url } });
  return { headers: { 'content-type': 'application/json' }, body };
}

/** ntfy reads RFC 2047 encoded words in its headers; fetch refuses header values beyond Latin-1. */
export function headerText(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text).toString('base64')}?=`;
}

function ntfyMessage(notice: RunNotice): NotificationRequest {
  const error = cutError(notice.error);
  const lines = [details(notice), ...summaryLines(notice), ...(error ? [`Error: ${error}`] : []), notice.url];
  return {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      title: headerText(headline(notice)),
      priority: succeeded(notice) ? 'default' : 'high',
      tags: succeeded(notice) ? 'white_check_mark' : 'x',
      click: notice.url,
    },
    body: lines.join('\n'),
  };
}

export const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Discord's markdown, made literal: text a sender or an agent wrote (a payload, a question, an
 * error) cannot make a masked link such as `[Deny (safe)](https://…)`, a heading or a quote that
 * passes for Steward's own lines.
 */
export const discordEscape = (text: string) => text.replace(/[\\*_~`|[\]]/g, '\\$&').replace(/^(\s*)([#>-])/gm, '$1\\$2');

function slackMessage(notice: RunNotice): NotificationRequest {
  const error = cutError(notice.error);
  const lines = [`*${slackEscape(headline(notice))}*`, slackEscape(details(notice)), ...summaryLines(notice).map(slackEscape), ...(error ? [`> ${slackEscape(error)}`] : []), `<${notice.url}|Open ${notice.runId ? 'run' : 'Steward'}>`];
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: lines.join('\n') }) };
}

function discordMessage(notice: RunNotice): NotificationRequest {
  const error = cutError(notice.error);
  const lines = [`**${discordEscape(headline(notice))}**`, discordEscape(details(notice)), ...summaryLines(notice).map(discordEscape), ...(error ? [`> ${discordEscape(error)}`] : []), notice.url];
  // No @everyone or role pings, whatever an error message says.
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: lines.join('\n'), allowed_mentions: { parse: [] } }) };
}

export function buildNotification(kind: ChannelKind, notice: RunNotice): NotificationRequest {
  switch (kind) {
    case 'webhook':
      return webhookEvent(notice);
    case 'ntfy':
      return ntfyMessage(notice);
    case 'slack':
      return slackMessage(notice);
    case 'discord':
      return discordMessage(notice);
  }
}
