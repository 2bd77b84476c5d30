// Settings → API keys: the form that makes a key (name and scope). Its refusal shows under the
// name and takes the focus, rather than at the top of Settings, out of sight.
import { useState } from 'react';
import { type Scope, scopes } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { ErrorLine, Field, useAction } from '../../ui/widgets';

export function ApiKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const { createApiKey, toast } = useApp();
  const [keyName, setKeyName] = useState('');
  const [keyScope, setKeyScope] = useState<Scope>('admin');
  const action = useAction();
  const create = async () => {
    const key = await action.run(() => createApiKey(keyName, keyScope));
    if (key === undefined) return;
    onCreated(key);
    setKeyName('');
    toast('success', 'API key created.');
  };
  return (
    <form noValidate ref={action.formRef} aria-label="New API key" onSubmit={(event) => { event.preventDefault(); void create(); }}>
      <div className="row wrap">
        <Field label="Key name" error={action.errorFor('name')}>
          <input placeholder="laptop, CI…" value={keyName} onChange={(event) => { setKeyName(event.target.value); action.clearFor('name'); }} />
        </Field>
        <Field label="Key scope" error={action.errorFor('scope')}>
          <select value={keyScope} onChange={(event) => setKeyScope(event.target.value as Scope)}>
            {scopes.map((scope) => <option key={scope} value={scope}>{scope}</option>)}
          </select>
        </Field>
        <button type="submit" disabled={action.busy}>Create key</button>
      </div>
      <ErrorLine message={action.generalError(['name', 'scope'])} />
    </form>
  );
}
