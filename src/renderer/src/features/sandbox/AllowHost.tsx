// The fix for a connection the sandbox refused, one click from the line that says so (on the run
// page and in the activity feed): "Allow <host>" adds the host to the instance's sandbox network.
import { useApp } from '../../lib/app-context';
import { type Denial, ruleFor } from './sandbox';
import { useAction } from '../../ui/widgets';

export function AllowHost({ instanceId, denial }: { instanceId: string; denial: Denial | undefined }) {
  const { instances, allowHost, toast } = useApp();
  const action = useAction();
  const instance = instances.find((each) => each.id === instanceId);
  const rule = denial && ruleFor(denial);
  if (!instance || !rule) return null;
  if (instance.sandbox.network.includes(rule)) return <span className="hint allow-host">{rule} is allowed now.</span>;
  const allow = () =>
    action.run(async () => {
      try {
        const { added } = await allowHost(instance.id, rule);
        toast('success', added ? `${rule} allowed for ${instance.name}: its next runs can reach it.` : `${rule} was already allowed for ${instance.name}.`);
      } catch (error) {
        toast('failure', `${rule} was not allowed: ${(error as Error).message}`);
      }
    });
  return (
    <button type="button" className="allow-host" onClick={() => void allow()} disabled={action.busy}>
      Allow {rule}
    </button>
  );
}
