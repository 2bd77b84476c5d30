// What a trigger waits for, in words, for the card, the notices and the CLI: "When a file matching
// *.pdf lands in ~/Invoices", "When mail from … arrives in INBOX at imap.example.com". Pure, so the
// renderer and the core say the same.
import type { AutomationTrigger, EventCondition } from './contract';
import { intervalWords } from './once-every';

const changeWords: Record<string, string> = { created: 'lands in', changed: 'changes in', deleted: 'is deleted from' };

function filterWords(filter: readonly EventCondition[]): string {
  const words = filter.map((condition) =>
    condition.contains !== undefined ? `${condition.field} contains "${condition.contains}"`
    : condition.equals !== undefined ? `${condition.field} is "${condition.equals}"`
    : condition.in !== undefined ? `${condition.field} is one of ${condition.in.map((each) => `"${each}"`).join(', ')}`
    : condition.exists ? `it has a ${condition.field}` : `it has no ${condition.field}`,
  );
  return words.length === 0 ? '' : ` (when ${words.join(' and ')})`;
}

/** The trigger in words; the timezone is the automation's (for at and every). */
export function triggerWords(trigger: AutomationTrigger, timezone: string): string {
  if (trigger.at !== undefined) return `Once, at ${trigger.at.replace('T', ' ')} ${/[zZ]|[+-]\d{2}:\d{2}$/.test(trigger.at) ? '' : timezone}`.trim();
  if (trigger.every !== undefined) return `${intervalWords(trigger.every).replace(/^e/, 'E')}${trigger.every.from ? ` from ${trigger.every.from.replace('T', ' ').replace(/:\d{2}\.\d{3}Z$/, ' UTC')}` : ''}`;
  if (trigger.watch !== undefined) {
    const { path, glob, on, per } = trigger.watch;
    const what = glob === '**/*' ? 'a file' : `a file matching ${glob}`;
    const changes = on.map((change) => changeWords[change]).join(' or ');
    return `When ${what} ${changes} ${path}${per === 'batch' ? ', once per batch' : ''}${filterWords(trigger.watch.filter)}`;
  }
  if (trigger.git !== undefined) return `When commits are pushed to ${trigger.git.branch} of ${trigger.git.repository}${filterWords(trigger.git.filter)}`;
  if (trigger.mail !== undefined) return `When mail arrives in ${trigger.mail.mailbox} of ${trigger.mail.user} at ${trigger.mail.host}${filterWords(trigger.mail.filter)}`;
  if (trigger.feed !== undefined) return `When ${trigger.feed.url} has a new item${filterWords(trigger.feed.filter)}`;
  return trigger.after ? 'After another automation' : '';
}
