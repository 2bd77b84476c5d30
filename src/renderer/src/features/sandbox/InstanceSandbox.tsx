// An instance's sandbox at a glance, wherever the instance shows: the "sandboxed" / "not sandboxed"
// badge, the one-click "Sandbox it" for an instance that runs as the user, and, where this machine
// cannot sandbox, the reason with "Run without a sandbox" as an explicit, marked choice.
import { useId } from 'react';
import type { Instance } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { cannotSandbox } from './sandbox';
import { ErrorLine, useAction } from '../../ui/widgets';

export const sandboxedMeans = 'Sandboxed: the agent sees only its workspace and what its sandbox allows (paths, hosts, environment variables); nothing else of this machine.';
export const unsandboxedMeans = 'Not sandboxed: the agent runs as you, with every file, host and variable your user account can reach.';

/** The badge; its title says what it means. */
export function SandboxBadge({ instance }: { instance: Instance }) {
  const sandboxed = instance.sandbox.mode === 'sandbox';
  return (
    <span className={`badge ${sandboxed ? 'sandboxed' : 'unsandboxed'}`} title={sandboxed ? sandboxedMeans : unsandboxedMeans}>
      <span aria-hidden="true">{sandboxed ? '◆' : '⚠'} </span>
      {sandboxed ? 'sandboxed' : 'not sandboxed'}
    </span>
  );
}

/** For an instance whose sandbox is off: what that means, and the switch back on. */
export function SandboxIt({ instance }: { instance: Instance }) {
  const { setSandboxMode, toast } = useApp();
  const action = useAction();
  if (instance.sandbox.mode !== 'off') return null;
  const sandboxIt = () =>
    action.run(async () => {
      await setSandboxMode(instance.id, 'sandbox');
      toast('success', `${instance.name} is sandboxed; its agent is checked again.`);
    });
  return (
    <div className="sandbox-note">
      <div className="row wrap">
        <span className="warning">Not sandboxed: its agent runs as you, with your files and network.</span>
        <button type="button" onClick={() => void sandboxIt()} disabled={action.busy}>Sandbox it</button>
      </div>
      <ErrorLine message={action.error?.message} />
    </div>
  );
}

/** Where the machine cannot sandbox the instance: why, checking again once fixed, or running it unsandboxed. */
export function CannotSandbox({ instance }: { instance: Instance }) {
  const { setSandboxMode, setInstanceRunning, toast } = useApp();
  const action = useAction();
  const risk = useId();
  if (!cannotSandbox(instance)) return null;
  const runOpen = () =>
    action.run(async () => {
      await setSandboxMode(instance.id, 'off');
      toast('success', `${instance.name} now runs without a sandbox.`);
    });
  return (
    <div className="card nested sandbox-note" role="group" aria-label="Sandbox unavailable">
      <p className="error">{instance.statusReason}</p>
      <div className="bar" style={{ marginBottom: 0 }}>
        <button type="button" onClick={() => void action.run(() => setInstanceRunning(instance.id, true))} disabled={action.busy}>Check again</button>
        <button type="button" className="danger" aria-describedby={risk} onClick={() => void runOpen()} disabled={action.busy}>
          <span aria-hidden="true">⚠ </span>Run without a sandbox
        </button>
      </div>
      <div className="warning" id={risk}>Without a sandbox the agent runs as you: it can read your files and credentials and reach any host. You can sandbox it later on Instances.</div>
      <ErrorLine message={action.error?.message} />
    </div>
  );
}
