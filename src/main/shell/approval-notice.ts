// What the desktop notification of an approval says, and whether it has buttons: Allow (action 0)
// and Deny (action 1) on macOS and Windows, where Electron shows notification actions; none on
// Linux, where a click opens the request instead.
import type { Approval } from '../../shared/contract';
import { oneLine } from '../../shared/format';

/** Platforms whose notifications show Electron's `button` actions. */
const withActions = new Set<NodeJS.Platform>(['darwin', 'win32']);

/** Which button an action index is: Allow first, then Deny. */
export const decisionOfAction = (index: number | undefined): 'allow' | 'deny' | undefined => (index === 0 ? 'allow' : index === 1 ? 'deny' : undefined);

export function approvalNotification(approval: Approval, platform: NodeJS.Platform) {
  const actions = withActions.has(platform);
  const body = [oneLine(approval.detail.text), ...(approval.detail.command ? [oneLine(approval.detail.command)] : []), ...(actions ? [] : ['Click to answer.'])].join('\n');
  return {
    options: { title: `Steward asks: ${approval.title}`, body, ...(actions ? { actions: [{ type: 'button' as const, text: 'Allow' }, { type: 'button' as const, text: 'Deny' }] } : {}) },
    actions,
  };
}
