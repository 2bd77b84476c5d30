// The instance an automation or webhook runs on: a choice among the instances (a remote one named
// with its host), the default first chosen unless its agent is broken and another is ready; a
// broken one says so in the list. One that exists stays on the Steward it was made on, so only
// the instances there are offered.
import { useApp } from '../../lib/app-context';
import { Field } from '../../ui/widgets';
import { instanceLabel } from './instance-label';

/** The default instance, unless its agent is broken and another instance is ready: that one then. */
export function useDefaultInstanceId(): string {
  const { instances } = useApp();
  const steward = instances.find((each) => each.isDefault);
  const ready = instances.find((each) => each.status === 'running');
  return (steward?.status === 'error' && ready ? ready : steward)?.id ?? '';
}

/** `madeOn`: the instance an existing automation or webhook was made on. */
export function InstanceField({ value, onChange, error, madeOn }: { value: string; onChange: (id: string) => void; error?: string | undefined; madeOn?: string | undefined }) {
  const { instances } = useApp();
  const location = instances.find((each) => each.id === madeOn)?.location;
  const choices = location === undefined ? instances : instances.filter((each) => each.location === location);
  const hint = choices.length < instances.length ? 'It stays on the Steward it was made on: for an instance elsewhere, create a new one there.' : undefined;
  return (
    <Field label="Instance" error={error} hint={hint}>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {choices.map((instance) => <option key={instance.id} value={instance.id}>{instanceLabel(instance)}{instance.status === 'error' ? ' (not ready)' : ''}</option>)}
      </select>
    </Field>
  );
}
