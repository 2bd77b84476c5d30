// The instance an automation or webhook runs on: a choice among the instances, the default first chosen.
import { useApp } from '../lib/app-context';
import { Field } from './ui';

export function useDefaultInstanceId(): string {
  return useApp().instances.find((each) => each.isDefault)?.id ?? '';
}

export function InstanceField({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string | undefined }) {
  const { instances } = useApp();
  return (
    <Field label="Instance" error={error}>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {instances.map((instance) => <option key={instance.id} value={instance.id}>{instance.name}</option>)}
      </select>
    </Field>
  );
}
