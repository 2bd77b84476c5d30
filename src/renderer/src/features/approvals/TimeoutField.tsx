// How long a person has to answer: a number and its unit (minutes or hours), with its problem; and
// the draft of a mode with such a wait, which the Approval and Permissions sections share.
import { useId, useState } from 'react';
import { type TimeoutDraft, type TimeoutUnit, timeoutDraftOf, timeoutSeconds } from './timeout-draft';

/**
 * A mode with its wait (an approval policy, an instance's permissions) as the form holds it, and
 * `ready()`: what to send, or undefined after marking the wait's problem.
 */
export function useTimedModeDraft<M extends string>(initial: { mode: M; timeoutSeconds: number }) {
  const [mode, setMode] = useState<M>(initial.mode);
  const [timeout, setTimeoutDraft] = useState<TimeoutDraft>(() => timeoutDraftOf(initial.timeoutSeconds));
  const [problem, setProblem] = useState<string>();
  const ready = (): { mode: M; timeoutSeconds: number } | undefined => {
    const checked = timeoutSeconds(timeout);
    setProblem(checked.ok ? undefined : checked.problem);
    return checked.ok ? { mode, timeoutSeconds: checked.seconds } : undefined;
  };
  const changeTimeout = (next: TimeoutDraft) => {
    setTimeoutDraft(next);
    setProblem(undefined);
  };
  return { mode, setMode, timeout, changeTimeout, problem, ready };
}

export function TimeoutField(props: { label: string; hint: string; draft: TimeoutDraft; onChange: (draft: TimeoutDraft) => void; error: string | undefined }) {
  const id = useId();
  const notes = [`${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="row">
        <input id={id} type="number" inputMode="decimal" min={1} value={props.draft.amount} aria-describedby={notes} aria-invalid={props.error ? true : undefined} onChange={(event) => props.onChange({ ...props.draft, amount: event.target.value })} />
        <select aria-label={`${props.label}: unit`} value={props.draft.unit} onChange={(event) => props.onChange({ ...props.draft, unit: event.target.value as TimeoutUnit })}>
          <option value="minutes">minutes</option>
          <option value="hours">hours</option>
        </select>
      </div>
      <div className="hint" id={`${id}-hint`}>{props.hint}</div>
      {props.error && <div className="error" role="alert" id={`${id}-error`}>{props.error}</div>}
    </div>
  );
}
