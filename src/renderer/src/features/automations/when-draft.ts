// The When section's draft, pure: what the form holds for each kind of start (a cron schedule, once,
// every, after another automation, a folder, a repository, mail, a feed), read from a saved
// automation, and turned into the API's body (`cronExpression` or `trigger`) checked with the
// contract's own schema, each refusal said under the field it concerns.
import { type Automation, type AutomationTrigger, type EventCondition, AutomationTrigger as TriggerSchema, chainableStatuses, eventKinds, fileChanges } from '../../../../shared/contract';
import { issueSentence } from '../../../../shared/issue-words';
import { instantToWallTime } from '../../../../shared/timezone';
import { cronExpressionProblem } from './CronHelper';

export type Ending = (typeof chainableStatuses)[number];
export type FileChange = (typeof fileChanges)[number];
export const whenModes = ['schedule', 'at', 'every', 'after', ...eventKinds] as const;
export type WhenMode = (typeof whenModes)[number];
export const isEventMode = (mode: WhenMode): mode is (typeof eventKinds)[number] => (eventKinds as readonly string[]).includes(mode);

export const filterTests = ['contains', 'equals', 'in', 'exists', 'absent'] as const;
export type FilterTest = (typeof filterTests)[number];
export interface FilterRow {
  field: string;
  test: FilterTest;
  /** For `in`: the choices, comma-separated. Unused for exists and absent. */
  value: string;
}

export interface WhenDraft {
  mode: WhenMode;
  cronExpression: string;
  afterId: string;
  on: Ending[];
  /** A wall time (YYYY-MM-DDTHH:MM) in the automation's timezone, as a datetime-local field holds it. */
  at: string;
  every: { count: string; unit: 'minutes' | 'hours' | 'days'; from: string };
  watch: { path: string; glob: string; on: FileChange[]; per: 'file' | 'batch'; debounceMs: string; settleMs: string };
  git: { repository: string; branch: string; credential: string; pollSeconds: string };
  mail: { host: string; port: string; tls: boolean; user: string; password: string; mailbox: string; afterRun: 'leave' | 'mark-read' | 'move'; moveTo: string; pollSeconds: string };
  feed: { url: string; pollMinutes: string };
  /** The event filter, kept across event kinds while one is chosen. */
  filter: FilterRow[];
}

/** Problems by field key (`watch.path`, `every.count`, `filter.0.value`), in words. */
export type WhenProblems = Record<string, string>;

const offsetPattern = /(Z|[+-]\d{2}:\d{2})$/i;

/** A saved time as the datetime-local field shows it: a wall time as written, an instant in `timezone`. */
export function wallTimeField(value: string | undefined, timezone: string): string {
  if (!value) return '';
  if (!offsetPattern.test(value)) return value.replace(' ', 'T').slice(0, 16);
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return '';
  try {
    return new Date(instantToWallTime(instant, timezone)).toISOString().slice(0, 16);
  } catch {
    return new Date(instant).toISOString().slice(0, 16);
  }
}

function rowsOf(filter: readonly EventCondition[] | undefined): FilterRow[] {
  return (filter ?? []).map((condition) =>
    condition.contains !== undefined ? { field: condition.field, test: 'contains', value: condition.contains }
    : condition.equals !== undefined ? { field: condition.field, test: 'equals', value: condition.equals }
    : condition.in !== undefined ? { field: condition.field, test: 'in', value: condition.in.join(', ') }
    : { field: condition.field, test: condition.exists ? 'exists' : 'absent', value: '' },
  );
}

const text = (value: number | undefined, fallback: number) => String(value ?? fallback);

/** The draft of a saved automation (or a new one's defaults). */
export function draftOf(automation: Automation | undefined): WhenDraft {
  const trigger = automation?.trigger ?? null;
  const timezone = automation?.timezone ?? 'UTC';
  const mode: WhenMode = trigger ? (whenModes.find((each) => each !== 'schedule' && trigger[each] !== undefined) ?? 'schedule') : 'schedule';
  const every = trigger?.every;
  const { watch, git, mail, feed } = trigger ?? {};
  return {
    mode,
    cronExpression: automation?.cronExpression ?? '0 9 * * 1-5',
    afterId: trigger?.after?.automationId ?? '',
    on: trigger?.after?.on ?? ['succeeded'],
    at: wallTimeField(trigger?.at, timezone),
    every: {
      count: every ? String(every.days ?? every.hours ?? every.minutes ?? '') : '90',
      unit: every?.days !== undefined ? 'days' : every?.hours !== undefined ? 'hours' : 'minutes',
      from: wallTimeField(every?.from, timezone),
    },
    watch: { path: watch?.path ?? '', glob: watch?.glob ?? '**/*', on: watch?.on ?? ['created'], per: watch?.per ?? 'file', debounceMs: text(watch?.debounceMs, 1000), settleMs: text(watch?.settleMs, 2000) },
    git: { repository: git?.repository ?? '', branch: git?.branch ?? 'main', credential: git?.credential ?? '', pollSeconds: text(git?.pollSeconds, 60) },
    mail: {
      host: mail?.host ?? '', port: text(mail?.port, 993), tls: mail?.tls ?? true, user: mail?.user ?? '', password: mail?.password ?? '', mailbox: mail?.mailbox ?? 'INBOX',
      afterRun: mail?.afterRun ?? 'leave', moveTo: mail?.moveTo ?? '', pollSeconds: text(mail?.pollSeconds, 60),
    },
    feed: { url: feed?.url ?? '', pollMinutes: text(feed?.pollMinutes, 15) },
    filter: rowsOf(watch?.filter ?? git?.filter ?? mail?.filter ?? feed?.filter),
  };
}

/** A whole number typed in a field, or NaN (the schema then says what it must be). */
const whole = (value: string): number => (/^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN);

function conditionsOf(rows: readonly FilterRow[]): EventCondition[] {
  return rows.map((row): EventCondition => {
    const field = row.field.trim();
    if (row.test === 'exists' || row.test === 'absent') return { field, exists: row.test === 'exists' };
    if (row.test === 'in') return { field, in: row.value.split(',').map((each) => each.trim()).filter(Boolean) };
    return { field, [row.test]: row.value };
  });
}

/** The trigger the draft names (unchecked); undefined for a cron schedule. */
export function triggerOf(draft: WhenDraft): AutomationTrigger | undefined {
  const filter = conditionsOf(draft.filter);
  switch (draft.mode) {
    case 'schedule':
      return undefined;
    case 'after':
      return { after: { automationId: draft.afterId, on: chainableStatuses.filter((each) => draft.on.includes(each)) } };
    case 'at':
      return { at: draft.at.trim() };
    case 'every':
      return { every: { [draft.every.unit]: whole(draft.every.count), ...(draft.every.from.trim() ? { from: draft.every.from.trim() } : {}) } };
    case 'watch': {
      const { watch } = draft;
      return { watch: { path: watch.path.trim(), glob: watch.glob.trim() || '**/*', on: fileChanges.filter((each) => watch.on.includes(each)), per: watch.per, debounceMs: whole(watch.debounceMs), settleMs: whole(watch.settleMs), filter } };
    }
    case 'git': {
      const { git } = draft;
      return { git: { repository: git.repository.trim(), branch: git.branch.trim(), ...(git.credential ? { credential: git.credential } : {}), pollSeconds: whole(git.pollSeconds), filter } };
    }
    case 'mail': {
      const { mail } = draft;
      return {
        mail: {
          host: mail.host.trim(), port: whole(mail.port), tls: mail.tls, user: mail.user.trim(), password: mail.password, mailbox: mail.mailbox.trim(),
          afterRun: mail.afterRun, ...(mail.afterRun === 'move' ? { moveTo: mail.moveTo.trim() } : {}), pollSeconds: whole(mail.pollSeconds), filter,
        },
      };
    }
    case 'feed':
      return { feed: { url: draft.feed.url.trim(), pollMinutes: whole(draft.feed.pollMinutes), filter } };
  }
}

/** The visible label of each field key, for the schema's words ("Folder must be …"). */
export const fieldLabels: Record<string, string> = {
  'after.automationId': 'After automation', 'after.on': 'When its run',
  at: 'Date and time',
  'every.minutes': 'Interval', 'every.hours': 'Interval', 'every.days': 'Interval', 'every.from': 'Starting from',
  'watch.path': 'Folder', 'watch.glob': 'Files', 'watch.on': 'Changes', 'watch.debounceMs': 'Debounce (milliseconds)', 'watch.settleMs': 'Settle time (milliseconds)', 'watch.per': 'Runs',
  'git.repository': 'Repository', 'git.branch': 'Branch', 'git.credential': 'Credential', 'git.pollSeconds': 'Fetch every (seconds)',
  'mail.host': 'IMAP server', 'mail.port': 'Port', 'mail.tls': 'TLS', 'mail.user': 'User', 'mail.password': 'Password', 'mail.mailbox': 'Mailbox', 'mail.afterRun': 'After a run succeeds', 'mail.moveTo': 'Move to', 'mail.pollSeconds': 'Ask every (seconds)',
  'feed.url': 'Feed URL', 'feed.pollMinutes': 'Check every (minutes)',
};

/** The form's key for a schema path: every.hours → every.count; watch.filter.0.value → filter.0.value. */
export function problemKey(path: readonly PropertyKey[]): string {
  const parts = path.map(String);
  if (parts[0] === 'every' && ['minutes', 'hours', 'days'].includes(parts[1] ?? '')) return 'every.count';
  if (parts[0] === 'every' && parts.length === 1) return 'every.count';
  const filterAt = parts.indexOf('filter');
  if (filterAt >= 0) {
    const [index, field] = parts.slice(filterAt + 1);
    if (index === undefined) return 'filter';
    return `filter.${index}.${field === 'field' ? 'field' : 'value'}`;
  }
  return parts.join('.');
}

const required: Record<string, string> = {
  'watch.path': 'Give the folder to watch, e.g. ~/Invoices.',
  'git.repository': 'Give a repository: a local path or a remote URL.',
  'mail.host': 'Give the IMAP server, e.g. imap.example.com.',
  'mail.user': 'Give the user to log in as.',
  'mail.password': 'Choose the secret holding the password.',
  'feed.url': 'Give the feed’s URL.',
  at: 'Give the date and time.',
};

/** What the draft refuses, by field key; empty when it can be saved. */
export function whenProblems(draft: WhenDraft): WhenProblems {
  const problems: WhenProblems = {};
  if (draft.mode === 'schedule') {
    const problem = cronExpressionProblem(draft.cronExpression);
    if (problem) problems.cronExpression = problem;
    return problems;
  }
  if (draft.mode === 'after') {
    if (draft.afterId === '') problems['after.automationId'] = 'Choose the automation it runs after.';
    else if (draft.on.length === 0) problems['after.on'] = 'Tick at least one ending of its run.';
    return problems;
  }
  if (draft.mode === 'watch' && draft.watch.on.length === 0) problems['watch.on'] = 'Tick at least one change.';
  draft.filter.forEach((row, index) => {
    if (row.field.trim() === '') problems[`filter.${index}.field`] = 'Name the field this condition tests, e.g. name.';
    else if ((row.test === 'contains' || row.test === 'in') && row.value.trim() === '') problems[`filter.${index}.value`] = row.test === 'in' ? 'Give the values, separated by commas.' : 'Give the text it must contain.';
  });
  const trigger = triggerOf(draft)!;
  const kind = draft.mode;
  const section = (trigger as Record<string, unknown>)[kind];
  for (const [key, words] of Object.entries(required)) {
    const [owner, field] = key.split('.');
    if (owner !== kind) continue;
    const value = field === undefined ? section : (section as Record<string, unknown>)[field];
    if (value === '' || value === undefined) problems[key] = words;
  }
  const checked = TriggerSchema.safeParse(trigger);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const key = problemKey(issue.path);
      if (problems[key]) continue;
      const label = key.startsWith('filter.') ? (key.endsWith('.field') ? 'Field' : 'Value') : (fieldLabels[issue.path.map(String).join('.')] ?? fieldLabels[key] ?? 'The trigger');
      problems[key] = issueSentence(issue, label);
    }
  }
  return problems;
}

/** The catch-up policy that fits the mode: `all` is for events only; an event trigger's default is `all`. */
export function fittedCatchUp(chosen: Automation['catchUp'] | undefined, mode: WhenMode): Automation['catchUp'] {
  if (isEventMode(mode)) return chosen ?? 'all';
  return chosen === undefined || chosen === 'all' ? 'latest' : chosen;
}

export const fileChangeWords: Record<FileChange, string> = { created: 'Created', changed: 'Changed', deleted: 'Deleted' };
