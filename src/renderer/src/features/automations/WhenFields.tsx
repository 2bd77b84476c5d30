// "When" in the automation editor: on a cron schedule (with its timezone), or after another
// automation's run ends in one of the chosen ways (with the {{previous.…}} fields its prompt takes).
import { useId, useState } from 'react';
import { type Automation, type AutomationTrigger, chainableStatuses } from '../../../../shared/contract';
import { CronHelper, cronExpressionProblem } from './CronHelper';
import { Field } from '../../ui/widgets';

type Ending = (typeof chainableStatuses)[number];
export interface WhenDraft {
  mode: 'schedule' | 'after';
  cronExpression: string;
  afterId: string;
  on: Ending[];
}

const timezones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
export const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const endingWords: Record<Ending, string> = { succeeded: 'succeeded', failed: 'failed', cancelled: 'was cancelled', timed_out: 'timed out', interrupted: 'was interrupted' };

/** The draft of when an automation runs, and `ready()`: the body's schedule or trigger, or undefined after saying what to fix. */
export function useWhenDraft(automation: Automation | undefined) {
  const [draft, setDraft] = useState<WhenDraft>({
    mode: automation?.trigger ? 'after' : 'schedule',
    cronExpression: automation?.cronExpression ?? '0 9 * * 1-5',
    afterId: automation?.trigger?.after.automationId ?? '',
    on: automation?.trigger?.after.on ?? ['succeeded'],
  });
  const [problem, setProblem] = useState<string | undefined>();
  const change = (next: WhenDraft) => {
    setDraft(next);
    setProblem(undefined);
  };
  const ready = (): { cronExpression: string } | { trigger: AutomationTrigger } | undefined => {
    // An invalid schedule is shown as the field's error while typing; it also stops the submit.
    if (draft.mode === 'schedule') return cronExpressionProblem(draft.cronExpression) ? undefined : { cronExpression: draft.cronExpression };
    const missing = draft.afterId === '' ? 'Choose the automation it runs after.' : draft.on.length === 0 ? 'Tick at least one ending of its run.' : undefined;
    setProblem(missing);
    return missing ? undefined : { trigger: { after: { automationId: draft.afterId, on: chainableStatuses.filter((each) => draft.on.includes(each)) } } };
  };
  return { draft, change, problem, ready };
}

export function WhenFields(props: {
  when: ReturnType<typeof useWhenDraft>;
  timezone: string;
  onTimezone: (zone: string) => void;
  /** The automations it may follow (not itself). */
  others: Automation[];
  errorFor: (field: string) => string | undefined;
  /** Forgets the server's error about a field once it is edited. */
  clearFor: (field: string) => void;
}) {
  const { draft, change, problem } = props.when;
  const name = useId();
  const after = draft.mode === 'after';
  const afterError = problem ?? props.errorFor('trigger');
  const cronError = cronExpressionProblem(draft.cronExpression);
  return (
    <fieldset className="section">
      <legend>When</legend>
      <div className="row wrap">
        <label className="switch">
          <input type="radio" name={name} checked={!after} onChange={() => change({ ...draft, mode: 'schedule' })} />
          On a schedule
        </label>
        <label className="switch">
          <input type="radio" name={name} checked={after} onChange={() => change({ ...draft, mode: 'after' })} />
          After another automation
        </label>
      </div>
      {after ? (
        <>
          <Field label="After automation" error={afterError} hint={props.others.length === 0 ? 'There is no other automation to follow yet.' : undefined}>
            <select value={draft.afterId} onChange={(event) => { change({ ...draft, afterId: event.target.value }); props.clearFor('trigger'); }}>
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
          </fieldset>
          <p className="hint" data-testid="previous-fields">
            Its prompt may use <code>{'{{previous.output}}'}</code> (the final answer of the run it follows), <code>{'{{previous.status}}'}</code>, <code>{'{{previous.runId}}'}</code> and <code>{'{{previous.summary}}'}</code>.
          </p>
        </>
      ) : (
        <Field label="Schedule (cron)" error={props.errorFor('cronExpression') ?? cronError} hint={cronError ? undefined : <CronHelper expression={draft.cronExpression} timezone={props.timezone} />}>
          <input className="mono" value={draft.cronExpression} onChange={(event) => { change({ ...draft, cronExpression: event.target.value }); props.clearFor('cronExpression'); }} />
        </Field>
      )}
      <Field label="Timezone" error={props.errorFor('timezone')} hint={after ? 'Its days (for budgets) are counted in this timezone.' : undefined}>
        <select value={props.timezone} onChange={(event) => props.onTimezone(event.target.value)}>
          {[...new Set(['UTC', localZone, ...timezones])].map((zone) => <option key={zone}>{zone}</option>)}
        </select>
      </Field>
    </fieldset>
  );
}
