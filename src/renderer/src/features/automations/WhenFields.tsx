// "When" in the automation editor: how it starts — on a cron schedule, once, every so often, after
// another automation's run, or on an event (a folder, a repository, mail, a feed) — with that kind's
// fields, the event filter, what the prompt may quote, and a check of what would have fired.
import { useId, useState } from 'react';
import { type Automation, type AutomationTrigger, type Instance, chainableStatuses } from '../../../../shared/contract';
import { isValidTimezone } from '../../../../shared/cron';
import { everySchedule, instantOf, localTimeProblem, onceSchedule } from '../../../../shared/once-every';
import { CronHelper, cronExpressionProblem } from './CronHelper';
import { EventFields } from './EventFields';
import { EventPreview } from './EventPreview';
import { FilterRows } from './FilterRows';
import { eventFieldsOf, eventWords } from './event-fields';
import { type Ending, type WhenDraft, type WhenMode, draftOf, fieldLabels, isEventMode, triggerOf, whenModes, whenProblems } from './when-draft';
import { Field } from '../../ui/widgets';

export type { WhenDraft } from './when-draft';

const timezones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
export const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const endingWords: Record<Ending, string> = { succeeded: 'succeeded', failed: 'failed', cancelled: 'was cancelled', timed_out: 'timed out', interrupted: 'was interrupted' };
const modeWords: Record<WhenMode, string> = { schedule: 'On a schedule', at: 'Once', every: 'Every', after: 'After another automation', watch: 'A folder', git: 'A repository', mail: 'Mail', feed: 'A feed' };

/** The draft of when an automation runs, and `ready()`: the body's schedule or trigger, or undefined after marking what to fix. */
export function useWhenDraft(automation: Automation | undefined) {
  const [draft, setDraft] = useState<WhenDraft>(() => draftOf(automation));
  // Problems are shown once a save or a check was tried, then follow the edits.
  const [checked, setChecked] = useState(false);
  const problems = checked ? whenProblems(draft) : {};
  const ready = (): { cronExpression: string } | { trigger: AutomationTrigger } | undefined => {
    setChecked(true);
    if (Object.keys(whenProblems(draft)).length > 0) return undefined;
    const trigger = triggerOf(draft);
    return trigger ? { trigger } : { cronExpression: draft.cronExpression };
  };
  return { draft, change: setDraft, problems, ready };
}

/** The next few fires of once or every, as the scheduler will compute them; none while the draft is not a time. */
function nextTimes(draft: WhenDraft, timezone: string): Date[] {
  const zone = isValidTimezone(timezone) ? timezone : 'UTC';
  const now = new Date();
  try {
    if (draft.mode === 'at') return localTimeProblem(draft.at) ? [] : onceSchedule(draft.at, zone).next(now, 1);
    const count = Number(draft.every.count);
    if (!Number.isInteger(count) || count < 1) return [];
    const from = draft.every.from.trim() === '' ? now.getTime() : localTimeProblem(draft.every.from) ? undefined : instantOf(draft.every.from, zone);
    return from === undefined ? [] : everySchedule({ [draft.every.unit]: count }, from, zone).next(now, 5);
  } catch {
    return [];
  }
}

function NextTimes({ draft, timezone }: { draft: WhenDraft; timezone: string }) {
  const times = nextTimes(draft, timezone);
  if (times.length === 0) return null;
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: isValidTimezone(timezone) ? timezone : 'UTC' });
  return (
    <ol className="times hint" aria-label={draft.mode === 'at' ? 'Runs at' : 'Next 5 runs'}>
      {times.map((time) => <li key={time.toISOString()}>{format.format(time)}</li>)}
    </ol>
  );
}

export function WhenFields(props: {
  when: ReturnType<typeof useWhenDraft>;
  timezone: string;
  onTimezone: (zone: string) => void;
  /** The automations it may follow (not itself). */
  others: Automation[];
  /** The instance its runs go to (a watched folder is checked against its sandbox). */
  instance: Instance | undefined;
  errorFor: (field: string) => string | undefined;
  /** Forgets the server's error about a field once it is edited. */
  clearFor: (field: string) => void;
  /** A new automation, not saved yet (an event trigger will start from a baseline). */
  creating: boolean;
}) {
  const { draft, problems } = props.when;
  const name = useId();
  const mode = draft.mode;
  const change = (next: WhenDraft) => {
    props.when.change(next);
    props.clearFor('trigger');
    props.clearFor('cronExpression');
  };
  const problem = (key: string) => problems[key] ?? props.errorFor(`trigger.${key}`);
  // The server's word on the trigger that no field shown claims is said under the choice of kind.
  const keysShown = Object.keys(fieldLabels).filter((key) => key.split('.')[0] === mode);
  const triggerError = props.errorFor('trigger') && !keysShown.some((key) => props.errorFor(`trigger.${key}`)) ? props.errorFor('trigger') : undefined;
  const cronError = cronExpressionProblem(draft.cronExpression);
  const event = isEventMode(mode) ? mode : undefined;
  return (
    <fieldset className="section">
      <legend>When</legend>
      <div className="row wrap" role="radiogroup" aria-label="How it starts">
        {whenModes.map((each) => (
          <label className="switch" key={each}>
            <input type="radio" name={name} value={each} checked={mode === each} onChange={() => change({ ...draft, mode: each })} />
            {modeWords[each]}
          </label>
        ))}
      </div>
      {triggerError && <div className="error" role="alert">{triggerError}</div>}
      {mode === 'schedule' && (
        <Field label="Schedule (cron)" error={props.errorFor('cronExpression') ?? cronError} hint={cronError ? undefined : <CronHelper expression={draft.cronExpression} timezone={props.timezone} />}>
          <input className="mono" value={draft.cronExpression} onChange={(event) => change({ ...draft, cronExpression: event.target.value })} />
        </Field>
      )}
      {mode === 'at' && (
        <Field label="Date and time" error={problem('at')} hint={<>In {props.timezone}. After it runs, the automation is turned off and kept. <NextTimes draft={draft} timezone={props.timezone} /></>}>
          <input type="datetime-local" value={draft.at} onChange={(event) => change({ ...draft, at: event.target.value })} />
        </Field>
      )}
      {mode === 'every' && (
        <>
          <div className="grid-2">
            <Field label="Interval" error={problem('every.count')}>
              <input inputMode="numeric" value={draft.every.count} onChange={(event) => change({ ...draft, every: { ...draft.every, count: event.target.value } })} />
            </Field>
            <Field label="Unit">
              <select value={draft.every.unit} onChange={(event) => change({ ...draft, every: { ...draft.every, unit: event.target.value as WhenDraft['every']['unit'] } })}>
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
                <option value="days">days</option>
              </select>
            </Field>
          </div>
          <Field label="Starting from" error={problem('every.from')} hint={<>In {props.timezone}; empty: from when it is saved. Days keep the wall time across daylight saving. <NextTimes draft={draft} timezone={props.timezone} /></>}>
            <input type="datetime-local" value={draft.every.from} onChange={(event) => change({ ...draft, every: { ...draft.every, from: event.target.value } })} />
          </Field>
        </>
      )}
      {mode === 'after' && (
        <>
          <Field label="After automation" error={problem('after.automationId')} hint={props.others.length === 0 ? 'There is no other automation to follow yet.' : undefined}>
            <select value={draft.afterId} onChange={(event) => change({ ...draft, afterId: event.target.value })}>
              <option value="">Choose one…</option>
              {props.others.map((each) => <option key={each.id} value={each.id}>{each.name}</option>)}
            </select>
          </Field>
          <fieldset className="choices">
            <legend>When its run</legend>
            {chainableStatuses.map((each) => (
              <label key={each}>
                <input type="checkbox" checked={draft.on.includes(each)} onChange={(event) => change({ ...draft, on: event.target.checked ? [...draft.on, each] : draft.on.filter((other) => other !== each) })} />
                {endingWords[each]}
              </label>
            ))}
            {problems['after.on'] && <div className="error" role="alert">{problems['after.on']}</div>}
          </fieldset>
          <p className="hint" data-testid="previous-fields">
            Its prompt may use <code>{'{{previous.output}}'}</code> (the final answer of the run it follows), <code>{'{{previous.status}}'}</code>, <code>{'{{previous.runId}}'}</code> and <code>{'{{previous.summary}}'}</code>.
          </p>
        </>
      )}
      {event && (
        <>
          <EventFields draft={draft} change={change} problem={problem} instance={props.instance} />
          <FilterRows rows={draft.filter} fields={eventFieldsOf[event]} problems={problems} onChange={(filter) => change({ ...draft, filter })} />
          <p className="hint tokens" data-testid="event-fields">
            Its prompt may use <code>{'{{event}}'}</code> ({eventWords[event]}, whole) and {eventFieldsOf[event].map((field, index) => (
              <span key={field}>{index > 0 && (index === eventFieldsOf[event].length - 1 ? ' and ' : ', ')}<code>{`{{event.${field}}}`}</code></span>
            ))}, fenced as text from outside.
          </p>
          <EventPreview trigger={() => { const body = props.when.ready(); return body && 'trigger' in body ? body.trigger : undefined; }} current={triggerOf(draft)} timezone={props.timezone} creating={props.creating} commits={event === 'git'} />
        </>
      )}
      <Field label="Timezone" error={props.errorFor('timezone')} hint={mode === 'after' || event ? 'Its days (for budgets) are counted in this timezone.' : undefined}>
        <select value={props.timezone} onChange={(event) => props.onTimezone(event.target.value)}>
          {[...new Set(['UTC', localZone, ...timezones])].map((zone) => <option key={zone}>{zone}</option>)}
        </select>
      </Field>
    </fieldset>
  );
}
