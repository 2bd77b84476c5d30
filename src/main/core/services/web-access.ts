// Who may use the management API: an API key (Authorization: Bearer), or a browser session that
// a one-time login link opened. The link is printed by `steward serve` (and `steward login-link`);
// it works once, for 10 minutes; the session is an HttpOnly, SameSite=Strict cookie for 30 days.
// A session is admin; a key has its own scope, checked against the scope each operation needs
// (caller.ts).
import type { Caller } from '../caller';
import { randomToken, sha256Hex } from '../ids';
import type { ApiKeysService } from './api-keys';
import type { ServiceContext } from './context';

export const sessionCookie = 'steward_session';
const loginLifetimeMs = 10 * 60 * 1000;
export const sessionLifetimeMs = 30 * 24 * 60 * 60 * 1000;

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export function createWebAccess(context: ServiceContext, apiKeys: ApiKeysService) {
  const { store } = context;
  const at = (offsetMs = 0) => new Date(context.now().getTime() + offsetMs).toISOString();

  return {
    /** A fresh one-time login token (the link is <base URL>/login?token=...). */
    createLoginToken(): string {
      const token = randomToken(24);
      store.transaction(() => {
        store.webSessions.expire(at());
        store.webSessions.insert(sha256Hex(token), 'login', at(loginLifetimeMs), at());
      });
      return token;
    },

    /** Takes a login token (once) and opens a session; undefined when it is unknown, used or expired. */
    redeem(loginToken: string): string | undefined {
      return store.transaction(() => {
        const hash = sha256Hex(loginToken);
        const valid = store.webSessions.valid(hash, 'login', at());
        if (!store.webSessions.take(hash, 'login') || !valid) return undefined;
        const session = randomToken(32);
        store.webSessions.insert(sha256Hex(session), 'session', at(sessionLifetimeMs), at());
        return session;
      });
    },

    endSession(cookieHeader: string | undefined): void {
      const session = cookieValue(cookieHeader, sessionCookie);
      if (session) store.webSessions.take(sha256Hex(session), 'session');
    },

    /** Who an API key is (its scope, and a run's key's run), else admin for a valid session cookie; 401 otherwise. */
    authenticate(headers: { authorization?: string | undefined; cookie?: string | undefined }): Caller {
      if (headers.authorization !== undefined) return apiKeys.authenticate(headers.authorization);
      const session = cookieValue(headers.cookie, sessionCookie);
      if (session) {
        const hash = sha256Hex(session);
        if (store.webSessions.valid(hash, 'session', at())) return { scope: 'admin', credential: `session:${hash.slice(0, 16)}` };
      }
      return apiKeys.authenticate(undefined);
    },

    /** Whether a request comes with a browser session (for the UI's first page). */
    hasSession: (cookieHeader: string | undefined): boolean => {
      const session = cookieValue(cookieHeader, sessionCookie);
      return session !== undefined && store.webSessions.valid(sha256Hex(session), 'session', at());
    },
  };
}

export type WebAccess = ReturnType<typeof createWebAccess>;
