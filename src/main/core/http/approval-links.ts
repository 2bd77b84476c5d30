// The single-use decision links of approvals (GET and POST /api/approvals/links/{token}), served on
// the local listener and on the tunnel's, like trigger URLs. The token is the credential, so the
// host/origin guard leaves these two routes alone (web.ts, isPublicPath): the page sends no
// referrer, and a phone's form POST from it carries `Origin: null`. A GET shows what is asked with
// one button and never decides: link previews and scanners GET every URL. The button POSTs to the
// same URL, which decides once; a link used, or whose approval was decided or expired, answers 410
// with what became of it. Everything here answers as a page, errors too: a phone shows no JSON.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from '../logger';
import type { Services } from '../compose-services';
import { approvalLinkPath } from '../services/approvals';
import { toAppError } from './errors';
import { AppError } from '../../../shared/errors';

/** A link path that reached no route (a token too long, a URL that is not valid percent-encoding). */
export const isDecisionLinkUrl = (url: string) => url.startsWith(approvalLinkPath(''));

type Pages = typeof import('./approval-link-pages');
let pages: Promise<Pages> | undefined;
const loadPages = (): Promise<Pages> => (pages ??= import('./approval-link-pages'));

/** The error page of a decision link: a phone shows no JSON. */
export async function linkErrorPage(reply: FastifyReply, status: number, message: string): Promise<FastifyReply> {
  return (await loadPages()).linkErrorPage(reply, status, message);
}

export function registerApprovalLinks(app: FastifyInstance, services: Services, logger: Logger): void {
  const path = approvalLinkPath(':token');
  const unknown = (reply: FastifyReply, { page }: Pages) => page(reply, 404, 'Unknown link', '<p>No request has this link. It may have been deleted with its run.</p>');
  const now = () => services.approvals.now();

  // Encapsulated, so the body parser and the error pages are these two routes' own.
  void app.register(async (scope) => {
    // A browser's form POST says application/x-www-form-urlencoded: the button sends no field, or
    // for a question with options the `answer` picked; nothing else is read.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body: string, done) => {
      done(null, { answer: new URLSearchParams(body).get('answer') ?? undefined });
    });
    scope.setErrorHandler(async (error: FastifyError, request, reply) => {
      const known = toAppError(error);
      if (!known) logger.error({ err: error, method: request.method, url: '/api/approvals/links/:token' }, 'decision link failed');
      const status = known?.status ?? 500;
      const message = known?.message ?? 'Something went wrong inside Steward; its log has the details. The request is still waiting: try the link again, or decide in the app.';
      return linkErrorPage(reply, status, message);
    });

    scope.get<{ Params: { token: string } }>(path, async (request, reply) => {
      const pages = await loadPages();
      const { page, details, decided, decisionForm } = pages;
      const found = services.approvals.byLink(request.params.token);
      if (!found) return unknown(reply, pages);
      const { record, decision } = found;
      if (record.status !== 'pending') return decided(reply, record, now());
      return page(reply, 200, record.title, `${details(record, now(), found.asker)}${decisionForm(record, decision)}`);
    });

    scope.post<{ Params: { token: string }; Body: { answer?: string } | undefined }>(path, async (request, reply) => {
      const pages = await loadPages();
      const { page, details, decided, decisionForm, escape } = pages;
      const found = services.approvals.byLink(request.params.token);
      if (!found) return unknown(reply, pages);
      if (found.record.status !== 'pending') return decided(reply, found.record, now());
      let result: NonNullable<ReturnType<typeof services.approvals.decideByLink>>;
      try {
        result = services.approvals.decideByLink(request.params.token, request.body?.answer)!;
      } catch (error) {
        // No option picked (or one the agent did not offer): the question again, with its buttons.
        if (!(error instanceof AppError) || error.code !== 'invalid_field') throw error;
        return page(reply, 400, found.record.title, `<p>${escape(error.message)}</p>${details(found.record, now(), found.asker)}${decisionForm(found.record, 'allow')}`);
      }
      // A decision elsewhere a moment before this one shows as the 410 page.
      if (result.record.decidedBy !== 'link') return decided(reply, result.record, now());
      return pages.donePage(reply, result.record, now());
    });
  });
}
