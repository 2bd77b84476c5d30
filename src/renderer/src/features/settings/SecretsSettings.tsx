// Stored secrets in Settings: their names and dates (values never come back), adding one or
// replacing its value, and deleting. An openai agent's API key names one of them.
import { useState } from 'react';
import { useApp } from '../../lib/app-context';
import { ConfirmButton, ErrorLine, Field, Time, useAction } from '../../ui/widgets';
import { ScrollBox } from '../../ui/ScrollBox';

/** A problem with a secret's name in words. */
export function secretNameProblem(name: string): string | undefined {
  if (name === '') return 'Give the secret a name, e.g. OPENROUTER_KEY.';
  return /^[A-Za-z0-9_.-]{1,100}$/.test(name) ? undefined : 'Use at most 100 letters, digits, dots, dashes or underscores.';
}

export function SecretsSettings() {
  const { secrets, putSecret, deleteSecret, toast } = useApp();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [checked, setChecked] = useState(false);
  const action = useAction();
  const nameProblem = checked ? secretNameProblem(name) : undefined;
  const valueProblem = checked && value === '' ? 'Paste the value to store.' : undefined;
  const save = async () => {
    setChecked(true);
    if (secretNameProblem(name) || value === '') return action.refused();
    const replacing = secrets.some((each) => each.name === name);
    const done = await action.run(async () => putSecret(name, value).then(() => true));
    if (!done) return toast('failure', `The secret ${name} was not saved.`);
    toast('success', replacing ? `Secret ${name} replaced.` : `Secret ${name} stored.`);
    setName('');
    setValue('');
    setChecked(false);
  };
  return (
    <div className="card">
      <h3 id="secrets-title">Secrets</h3>
      <div className="hint" style={{ marginBottom: 8 }}>Stored encrypted; a value is never shown again. A built-in agent’s API key names one.</div>
      {secrets.length > 0 && (
        <ScrollBox label="Secrets, the table">
        <table aria-labelledby="secrets-title" style={{ marginBottom: 10 }}>
          <thead><tr><th>Name</th><th>Updated</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {secrets.map((secret) => (
              <tr key={secret.name}>
                <td className="mono">{secret.name}</td>
                <td><Time iso={secret.updatedAt} /></td>
                <td className="actions">
                  <button type="button" onClick={() => { setName(secret.name); setValue(''); }}>Replace</button>
                  <ConfirmButton label="Delete" danger question={`Delete ${secret.name}? Agents that use it lose their key.`} confirm="Delete" onConfirm={() => void action.run(async () => { await deleteSecret(secret.name); toast('success', `Secret ${secret.name} deleted.`); })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </ScrollBox>
      )}
      <form noValidate ref={action.formRef} aria-label="Store a secret" onSubmit={(event) => { event.preventDefault(); void save(); }}>
        <div className="grid-2">
          <Field label="Secret name" error={nameProblem ?? action.errorFor('name')}>
            <input className="mono" autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} placeholder="OPENROUTER_KEY" />
          </Field>
          <Field label="Value" error={valueProblem ?? action.errorFor('value')}>
            <input type="password" autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} />
          </Field>
        </div>
        <ErrorLine message={action.generalError(['name', 'value'])} />
        <button type="submit" disabled={action.busy}>{secrets.some((each) => each.name === name) ? 'Replace value' : 'Store secret'}</button>
      </form>
    </div>
  );
}
