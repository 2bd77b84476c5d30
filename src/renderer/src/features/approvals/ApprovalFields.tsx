// The Approval section of the automation and webhook editors: whether each run waits for a person
// before it starts, and how long it waits before it is cancelled.
import { useId } from 'react';
import type { ApprovalPolicy } from '../../../../shared/contract';
import { TimeoutField, useTimedModeDraft } from './TimeoutField';

export const useApprovalDraft = (initial: ApprovalPolicy) => useTimedModeDraft<ApprovalPolicy['mode']>(initial);

export function ApprovalFields(props: { approval: ReturnType<typeof useApprovalDraft>; errorFor: (field: string) => string | undefined }) {
  const { mode, setMode, timeout, changeTimeout, problem } = props.approval;
  const group = useId();
  return (
    <fieldset className="section">
      <legend>Approval</legend>
      <fieldset className="choices">
        <legend>Before each run</legend>
        <label>
          <input type="radio" name={group} checked={mode === 'none'} onChange={() => setMode('none')} />
          Start at once
        </label>
        <label>
          <input type="radio" name={group} checked={mode === 'before-run'} onChange={() => setMode('before-run')} />
          Wait for a person to allow it (Needs you, a notification, or its link)
        </label>
      </fieldset>
      {mode === 'before-run' && (
        <TimeoutField label="Wait at most" hint="Not allowed within this time, the run is cancelled." draft={timeout} onChange={changeTimeout} error={problem ?? props.errorFor('approval')} />
      )}
      {mode === 'none' && props.errorFor('approval') && <div className="error" role="alert">{props.errorFor('approval')}</div>}
    </fieldset>
  );
}
