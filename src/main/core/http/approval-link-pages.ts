// The pages of the approvals' decision links (approval-links.ts serves them): what is asked with
// its button, what became of a request decided, the error pages. Loaded with the first link opened,
// not with every start.
import type { FastifyReply } from 'fastify';
import { clockUtc, relativeUtc } from '../../../shared/human-time';
import type { ApprovalRecord } from '../store/repositories/approvals';

export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)} · Steward</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;overflow-wrap:anywhere}pre{white-space:pre-wrap;background:#f3f4f6;padding:.75rem;border-radius:6px;overflow:auto}button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:0;color:#fff;cursor:pointer}.allow{background:#1a7f37}.deny{background:#cf222e}.muted{color:#57606a}</style></head>
<body><h1>${escape(title)}</h1>${body}</body></html>`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .send(html);
}

export function details(record: ApprovalRecord, now: Date, asker: string | undefined): string {
  const { detail } = record;
  const parts = [`<p>${escape(detail.text)}</p>`];
  if (detail.command) parts.push(`<p class="muted">Command</p><pre>${escape(detail.command)}</pre>`);
  if (detail.path) parts.push(`<p class="muted">File: ${escape(detail.path)}</p>`);
  if (detail.diff) parts.push(`<pre>${escape(detail.diff)}</pre>`);
  if (detail.url) parts.push(`<p class="muted">URL: ${escape(detail.url)}</p>`);
  if (detail.options) parts.push(`<p class="muted">Options: ${detail.options.map(escape).join(', ')}</p>`);
  // Whose run in words; the id stays in a title for whoever needs it.
  const whose = `<span title="${escape(record.runId)}">${escape(asker ?? 'A run')}</span>`;
  parts.push(`<p class="muted">${whose} · asked ${escape(relativeUtc(record.createdAt, now))} · expires ${escape(relativeUtc(record.expiresAt, now))}</p>`);
  return parts.join('');
}

export function decided(reply: FastifyReply, record: ApprovalRecord, now: Date): FastifyReply {
  const by = record.decidedBy === 'link' ? 'by a link' : record.decidedBy === 'timeout' ? 'by the timeout' : record.decidedBy === null ? 'as its run ended' : `in the ${record.decidedBy === 'ui' ? 'app' : 'API'}`;
  const what = record.status === 'expired' ? 'Expired' : record.status === 'allowed' ? 'Allowed' : 'Denied';
  const when = relativeUtc(record.decidedAt ?? record.expiresAt, now);
  return page(reply, 410, `${what}: ${record.title}`, `<p>This link no longer decides anything: the request was ${record.status} ${by}, ${escape(when)}.</p>${record.note ? `<p>Note: ${escape(record.note)}</p>` : ''}`);
}

/** What the decision does, in the words of the page that confirms it. */
function outcome(record: ApprovalRecord): string {
  if (record.kind === 'run') return record.status === 'allowed' ? 'The run is queued and starts now.' : 'The run will not start.';
  if (record.kind === 'question') return record.status === 'allowed' ? `The agent has been told ${record.answer ? `"${escape(record.answer)}"` : 'yes'}.` : 'The agent has been told no.';
  return record.status === 'allowed' ? 'The agent has been told it may go ahead.' : 'The agent has been told it may not.';
}

/** The page's form: one button, or for a question with options, one button per option. */
export function decisionForm(record: ApprovalRecord, decision: 'allow' | 'deny'): string {
  if (decision === 'deny') return '<form method="post"><button class="deny" type="submit">Deny</button></form>';
  const { options } = record.detail;
  if (!options) return '<form method="post"><button class="allow" type="submit">Allow</button></form>';
  const buttons = options.map((option) => `<button class="allow" type="submit" name="answer" value="${escape(option)}">${escape(option)}</button>`).join(' ');
  return `<p>Answer with one of its options:</p><form method="post" style="display:flex;flex-wrap:wrap;gap:.5rem">${buttons}</form>`;
}

/** The error page of a decision link: a phone shows no JSON. */
export function linkErrorPage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return page(reply, status, status === 404 ? 'Unknown link' : 'This link could not decide', `<p>${escape(message)}</p>`);
}

/** The page that confirms a decision made by the link. */
export function donePage(reply: FastifyReply, record: ApprovalRecord, now: Date): FastifyReply {
  return page(reply, 200, `${record.status === 'allowed' ? 'Allowed' : 'Denied'}: ${record.title}`, `<p>Done at ${clockUtc(new Date(record.decidedAt ?? now.toISOString()), now)}. ${outcome(record)}</p>`);
}
