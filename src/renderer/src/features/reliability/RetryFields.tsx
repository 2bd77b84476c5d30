// The Retry section of the automation and webhook editors: how many retries, the first wait, and
// which failures are retried; a refused key and the agent's own error are shown, never selectable.
import { useId, useState } from 'react';
import { type RetryPolicy, neverRetried } from '../../../../shared/contract';
import { type Problems, type RetryDraft, errorClassWords, retryDraftOf, retryToSave, retryableClasses } from './drafts';
import { Field } from '../../ui/widgets';

/** The form's draft of a retry policy, and `ready()`: the policy to send, or undefined after marking what to fix. */
export function useRetryDraft(initial: RetryPolicy) {
  const [draft, setDraft] = useState<RetryDraft>(() => retryDraftOf(initial));
  const [problems, setProblems] = useState<Problems<keyof RetryDraft>>({});
  const change = (next: RetryDraft) => {
    setDraft(next);
    setProblems({});
  };
  const ready = (): RetryPolicy | undefined => {
    const checked = retryToSave(draft);
    setProblems(checked.ok ? {} : checked.problems);
    return checked.ok ? checked.retry : undefined;
  };
  return { draft, change, problems, ready };
}

export function RetryFields(props: { retry: ReturnType<typeof useRetryDraft>; errorFor: (field: string) => string | undefined }) {
  const { draft, change, problems } = props.retry;
  const onError = useId();
  const onProblem = problems.on ?? props.errorFor('retry.on');
  const toggle = (each: (typeof retryableClasses)[number], checked: boolean) => change({ ...draft, on: checked ? [...draft.on, each] : draft.on.filter((other) => other !== each) });
  return (
    <fieldset className="section">
      <legend>Retry</legend>
      <div className="grid-2">
        <Field label="Retries after a failure" error={problems.attempts ?? props.errorFor('retry.attempts')} hint="0 to 5; 0: a failed run stays failed.">
          <input type="number" inputMode="numeric" value={draft.attempts} onChange={(event) => change({ ...draft, attempts: event.target.value })} />
        </Field>
        <Field label="First wait (seconds)" error={problems.backoffSeconds ?? props.errorFor('retry.backoffSeconds')} hint="Each next wait doubles, with some jitter.">
          <input type="number" inputMode="numeric" value={draft.backoffSeconds} onChange={(event) => change({ ...draft, backoffSeconds: event.target.value })} />
        </Field>
      </div>
      <fieldset className="choices" aria-describedby={onProblem ? onError : undefined}>
        <legend>Retry when it failed because of</legend>
        {retryableClasses.map((each) => (
          <label key={each}>
            <input type="checkbox" checked={draft.on.includes(each)} onChange={(event) => toggle(each, event.target.checked)} />
            {errorClassWords[each]}
            {each === 'usage_limit' && ' (retried once, when it resets, if the agent said when)'}
          </label>
        ))}
        {neverRetried.map((each) => (
          <label key={each} className="hint">
            <input type="checkbox" checked={false} disabled />
            {errorClassWords[each]}: never retried, it would fail the same way again
          </label>
        ))}
        {onProblem && <div className="error" role="alert" id={onError}>{onProblem}</div>}
      </fieldset>
    </fieldset>
  );
}
