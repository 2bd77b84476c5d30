// The single-use decision links of approvals (GET and POST /api/approvals/links/{token}), served on
// the local listener and on the tunnel's, like trigger URLs. The token is the credential. A GET
// shows what is asked with one button and never decides: link previews and scanners GET every URL.
// The button POSTs to the same URL, which decides once; a link used, or whose approval was decided
// or expired, answers 410 with what became of it.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApprovalRecord } from '../store/repositories/approvals';
import type { Services } from '../services';
import { approvalLinkPath } from '../services/approvals';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)} · Steward</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}pre{white-space:pre-wrap;background:#f3f4f6;padding:.75rem;border-radius:6px;overflow:auto}button{font:inherit;padding:.6rem 1.4rem;border-radius:6px;border:0;color:#fff;cursor:pointer}.allow{background:#1a7f37}.deny{background:#cf222e}.muted{color:#57606a}</style></head>
<body><h1>${escape(title)}</h1>${body}</body></html>`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .send(html);
}

function details(record: ApprovalRecord): string {
  const { detail } = record;
  const parts = [`<p>${escape(detail.text)}</p>`];
  if (detail.command) parts.push(`<p class="muted">Command</p><pre>${escape(detail.command)}</pre>`);
  if (detail.path) parts.push(`<p class="muted">File: ${escape(detail.path)}</p>`);
  if (detail.diff) parts.push(`<pre>${escape(detail.diff)}</pre>`);
  if (detail.url) parts.push(`<p class="muted">URL: ${escape(detail.url)}</p>`);
  if (detail.options) parts.push(`<p class="muted">Options: ${detail.options.map(escape).join(', ')}</p>`);
  parts.push(`<p class="muted">Run ${escape(record.runId)} · expires ${escape(record.expiresAt)}</p>`);
  return parts.join('');
}

function decided(reply: FastifyReply, record: ApprovalRecord): FastifyReply {
  const by = record.decidedBy === 'link' ? 'by a link' : record.decidedBy === 'timeout' ? 'by the timeout' : record.decidedBy === null ? 'as its run ended' : `in the ${record.decidedBy === 'ui' ? 'app' : 'API'}`;
  const what = record.status === 'expired' ? 'Expired' : record.status === 'allowed' ? 'Allowed' : 'Denied';
  return page(reply, 410, `${what}: ${record.title}`, `<p>This link no longer decides anything: the request was ${record.status} ${by} at ${escape(record.decidedAt ?? record.expiresAt)}.</p>${record.note ? `<p>Note: ${escape(record.note)}</p>` : ''}`);
}

export function registerApprovalLinks(app: FastifyInstance, services: Services): void {
  const path = approvalLinkPath(':token');
  const unknown = (reply: FastifyReply) => page(reply, 404, 'Unknown link', '<p>No request has this link. It may have been deleted with its run.</p>');

  app.get<{ Params: { token: string } }>(path, async (request, reply) => {
    const found = services.approvals.byLink(request.params.token);
    if (!found) return unknown(reply);
    const { record, decision } = found;
    if (record.status !== 'pending') return decided(reply, record);
    const button = decision === 'allow' ? '<button class="allow" type="submit">Allow</button>' : '<button class="deny" type="submit">Deny</button>';
    return page(reply, 200, record.title, `${details(record)}<form method="post">${button}</form>`);
  });

  app.post<{ Params: { token: string } }>(path, async (request, reply) => {
    const found = services.approvals.byLink(request.params.token);
    if (!found) return unknown(reply);
    if (found.record.status !== 'pending') return decided(reply, found.record);
    const result = services.approvals.decideByLink(request.params.token)!;
    // A decision elsewhere a moment before this one shows as the 410 page.
    if (result.record.decidedBy !== 'link') return decided(reply, result.record);
    return page(reply, 200, `${result.record.status === 'allowed' ? 'Allowed' : 'Denied'}: ${result.record.title}`, `<p>Done. The agent has been told.</p>`);
  });
}
