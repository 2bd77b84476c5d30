// The instance an automation or webhook runs on: a choice among the instances, the default first
// chosen unless its agent is broken and another is ready; a broken one says so in the list.
import { useApp } from '../../lib/app-context';
import { Field } from '../../ui/widgets';

/** The default instance, unless its agent is broken and another instance is ready: that one then. */
export function useDefaultInstanceId(): string {
  const { instances } = useApp();
  const steward = instances.find((each) => each.isDefault);
  const ready = instances.find((each) => each.status === 'running');
  return (steward?.status === 'error' && ready ? ready : steward)?.id ?? '';
}

export function InstanceField({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string | undefined }) {
  const { instances } = useApp();
  return (
    <Field label="Instance" error={error}>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {instances.map((instance) => <option key={instance.id} value={instance.id}>{instance.name}{instance.status === 'error' ? ' (not ready)' : ''}</option>)}
      </select>
    </Field>
  );
}
