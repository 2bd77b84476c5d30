// What end-to-end tests do with a page of the web UI: log in with the daemon's one-time link and
// call the API through a logged-in tab. The browser and the built UI come from the fixture (e2e.ts).
import type { Page } from 'playwright-core';
import type { Server } from './processes';

/** The one-time login link the daemon printed when it started. */
export const loginLinkOf = (daemon: Server): string => /(http:\/\/\S+\/login\?token=\S+)/.exec(daemon.output().stdout)![1];

/** A call of the API through a logged-in tab (its session cookie is the credential), to seed data or check what a click did. */
export function pageApi(page: () => Page) {
  return <T = Record<string, never>>(method: string, route: string, body?: unknown): Promise<T> =>
    page().evaluate(
      async ({ method, route, body }) => (await fetch(route, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<T>,
      { method, route, body },
    );
}
