// The Permissions section of the instance form: whether the agent acts without asking or asks a
// person before it acts (and how long it waits for an answer), how this agent asks, and, for an
// agent that cannot ask, why (ask is then not offered). The API's refusal shows here too.
import { useId } from 'react';
import type { AgentConfig, Permissions } from '../../../../shared/contract';
import { askMechanism, askProblem } from '../../../../shared/agent-permissions';
import { TimeoutField, useTimedModeDraft } from './TimeoutField';

export const usePermissionsDraft = (initial: Permissions) => useTimedModeDraft<Permissions['mode']>(initial);

export function PermissionsFields(props: { permissions: ReturnType<typeof usePermissionsDraft>; agent: AgentConfig; errorFor: (field: string) => string | undefined }) {
  const { mode, setMode, timeout, changeTimeout, problem } = props.permissions;
  const cannotAsk = askProblem(props.agent, 'form');
  const mechanism = askMechanism(props.agent);
  const refused = props.errorFor('permissions');
  const group = useId();
  return (
    <fieldset className="section">
      <legend>Permissions</legend>
      <fieldset className="choices">
        <legend>Before the agent acts</legend>
        <label>
          <input type="radio" name={group} checked={mode === 'bypass'} onChange={() => setMode('bypass')} />
          Act without asking
        </label>
        {/* Not offered to an agent that cannot ask, unless already chosen: then the refusal says why. */}
        {(!cannotAsk || mode === 'ask') && (
          <label>
            <input type="radio" name={group} checked={mode === 'ask'} onChange={() => setMode('ask')} />
            Ask a person before each action
          </label>
        )}
      </fieldset>
      {cannotAsk ? <div className="hint" data-testid="ask-problem">{cannotAsk}</div> : <div className="hint">It asks through {mechanism}.</div>}
      {mode === 'ask' && (
        <TimeoutField label="Wait for an answer at most" hint="Not answered within this time, the action is denied and the agent carries on." draft={timeout} onChange={changeTimeout} error={problem} />
      )}
      {refused && <div className="error" role="alert">{refused}</div>}
    </fieldset>
  );
}
