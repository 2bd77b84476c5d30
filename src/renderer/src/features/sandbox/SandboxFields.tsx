// The Sandbox section of the agent form (a new instance, "Edit agent"): sandboxed or off (marked as
// the risk it is), the hosts the agent may reach, the extra paths hidden from it or writable by it,
// and the variables of Steward's environment passed on to it (sandboxed or off). Every row is checked with the contract's schemas as it is typed; a form with a refused row
// saves nothing.
import { useId, useState } from 'react';
import { type SandboxConfig, agentEnvBaseText } from '../../../../shared/contract';
import { type SandboxList, entryProblem, sandboxToSave } from './sandbox';
import { EntryList } from './EntryList';
import { ErrorLine } from '../../ui/widgets';

/** The form's draft of a sandbox, and `ready()`: the sandbox to send, or undefined after saying what to fix. */
export function useSandboxDraft(initial: SandboxConfig) {
  const [sandbox, setDraft] = useState<SandboxConfig>(initial);
  const [problem, setProblem] = useState<string | undefined>();
  const setSandbox = (next: SandboxConfig) => {
    setDraft(next);
    setProblem(undefined);
  };
  const ready = (): SandboxConfig | undefined => {
    const checked = sandboxToSave(sandbox);
    if (checked.ok) return checked.sandbox;
    setProblem(`Nothing was saved. ${checked.problem}`);
    return undefined;
  };
  return { sandbox, setSandbox, problem, ready };
}

const lists: { list: SandboxList; legend: string; hint: string; itemLabel: string; addLabel: string; placeholder: string }[] = [
  {
    list: 'network',
    legend: 'Allowed hosts',
    hint: 'Besides its model endpoint and Steward: a name, *.wildcard, host:port, or * for any host. The machine’s own services only by port (127.0.0.1:8080).',
    itemLabel: 'Allowed host',
    addLabel: 'Add host',
    placeholder: 'api.example.com',
  },
  { list: 'readAllow', legend: 'Also readable', hint: 'Paths it may read besides its workspace, its CLI and the system’s folders: the rest of your home is hidden.', itemLabel: 'Readable path', addLabel: 'Add readable path', placeholder: '~/reference' },
  { list: 'readDeny', legend: 'Hidden from the agent', hint: 'Paths it may not read, beyond the credential stores it never sees.', itemLabel: 'Hidden path', addLabel: 'Add hidden path', placeholder: '~/private' },
  { list: 'writeAllow', legend: 'Also writable', hint: 'Paths it may write besides its workspace and its own CLI state.', itemLabel: 'Writable path', addLabel: 'Add writable path', placeholder: '~/notes' },
  {
    list: 'envAllow',
    legend: 'Passed on from Steward’s environment',
    hint: `Names of Steward’s own variables the agent gets too, sandboxed or off. Otherwise it gets only ${agentEnvBaseText} from there, and its own environment.`,
    itemLabel: 'Variable passed on',
    addLabel: 'Add variable',
    placeholder: 'JAVA_HOME',
  },
];

export function SandboxFields(props: {
  sandbox: SandboxConfig;
  onChange: (sandbox: SandboxConfig) => void;
  errorFor: (field: string) => string | undefined;
  /** What the form found wrong with the draft on save. */
  problem?: string | undefined;
  /** Why this machine cannot sandbox the instance, when it cannot. */
  unavailable?: string | null | undefined;
}) {
  const { sandbox, onChange } = props;
  const name = useId();
  const offNote = useId();
  const off = sandbox.mode === 'off';
  return (
    <fieldset className="sandbox">
      <legend>Sandbox</legend>
      <label className="choice">
        <input type="radio" name={name} value="sandbox" checked={!off} onChange={() => onChange({ ...sandbox, mode: 'sandbox' })} />
        <span><strong>Sandboxed (recommended)</strong>: the agent sees its workspace, its own CLI state and the hosts you allow</span>
      </label>
      <label className="choice">
        <input type="radio" name={name} value="off" checked={off} aria-describedby={off ? offNote : undefined} onChange={() => onChange({ ...sandbox, mode: 'off' })} />
        <span className="warning-text"><span aria-hidden="true">⚠ </span><strong>Off</strong>: runs as you, with your files and network</span>
      </label>
      {off && (
        <div className="warning" role="status" id={offNote}>
          Not sandboxed: the agent can read your SSH keys and cloud credentials, write anywhere you can and reach any host.
        </div>
      )}
      {!off && props.unavailable && <div className="warning" role="status">{props.unavailable}</div>}
      {lists.map(({ list, ...labels }) => (
        <EntryList key={list} {...labels} entries={sandbox[list] ?? []} onChange={(entries) => onChange({ ...sandbox, [list]: entries })} problemOf={(entry) => entryProblem(list, entry)} />
      ))}
      <ErrorLine message={props.problem ?? props.errorFor('sandbox')} />
    </fieldset>
  );
}
