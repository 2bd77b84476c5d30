// Notices: what Steward itself has to tell (an automation failing or missing fires, and its
// recovery; the time Steward was off; a budget reached). Each is a system line in the feed whose
// raw JSON says `type: "notice"`; the desktop app shows those as native notifications.
import type { Store } from '../store';

export const noticeKinds = ['automation-unhealthy', 'automation-recovered', 'steward-was-off', 'over-budget'] as const;
export type NoticeKind = (typeof noticeKinds)[number];

export interface Notice {
  kind: NoticeKind;
  title: string;
  body: string;
  instanceId: string;
  automationId?: string;
}

export function postNotice(store: Store, notice: Notice, at: Date): void {
  store.activity.append({
    instanceId: notice.instanceId,
    runId: null,
    kind: 'system',
    label: 'cron',
    displayText: `${notice.title}: ${notice.body}`,
    raw: JSON.stringify({ type: 'notice', ...notice }),
    timestamp: at.toISOString(),
  });
}

/** The notice a feed line carries, if it is one. */
export function noticeOf(raw: string): Notice | undefined {
  try {
    const parsed = JSON.parse(raw) as Partial<Notice> & { type?: unknown };
    return parsed.type === 'notice' && typeof parsed.title === 'string' && typeof parsed.body === 'string' ? (parsed as Notice) : undefined;
  } catch {
    return undefined;
  }
}
