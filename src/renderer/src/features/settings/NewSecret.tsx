// Storing a secret without leaving a form (a mail password, a git token): a name and a value,
// stored as Settings → Secrets stores them, then chosen in the form that asked. Leaving the form
// for Settings threw away what had been typed.
import { useState } from 'react';
import { useApp } from '../../lib/app-context';
import { ErrorLine, useAction } from '../../ui/widgets';
import { secretNameProblem } from './SecretsSettings';

export function NewSecret({ suggestedName, onStored }: { suggestedName: string; onStored: (name: string) => void }) {
  const { putSecret, toast } = useApp();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(suggestedName);
  const [value, setValue] = useState('');
  const [checked, setChecked] = useState(false);
  const action = useAction();
  if (!open) {
    return <button type="button" className="link" onClick={() => setOpen(true)}>Store a new secret…</button>;
  }
  const nameProblem = checked ? secretNameProblem(name) : undefined;
  const valueProblem = checked && value === '' ? 'Paste the value to store.' : undefined;
  const store = async () => {
    setChecked(true);
    if (secretNameProblem(name) || value === '') return;
    const done = await action.run(async () => putSecret(name, value).then(() => true));
    if (!done) return;
    toast('success', `Secret ${name} stored.`);
    onStored(name);
    setValue('');
    setOpen(false);
  };
  return (
    <div className="new-secret" role="group" aria-label="A new secret">
      <label>
        Secret name
        <input className="mono" value={name} aria-invalid={nameProblem ? true : undefined} onChange={(event) => setName(event.target.value)} />
      </label>
      {nameProblem && <div className="error">{nameProblem}</div>}
      <label>
        Value
        <input type="password" autoComplete="new-password" value={value} aria-invalid={valueProblem ? true : undefined} onChange={(event) => setValue(event.target.value)} />
      </label>
      {valueProblem && <div className="error">{valueProblem}</div>}
      <ErrorLine message={action.error?.message} />
      <div className="row wrap">
        <button type="button" className="primary" onClick={() => void store()} disabled={action.busy}>Store secret</button>
        <button type="button" onClick={() => setOpen(false)}>Cancel</button>
      </div>
    </div>
  );
}
