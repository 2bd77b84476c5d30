// The form that adds a remote Steward: its name, its URL (checked with the contract's own rule),
// its API key (a stored secret, or pasted and stored as a new one: the key stays in this Steward),
// "Test connection" with what it found (a pasted key is tested as it is; it is stored only if Add succeeds),
// then Add.
import { useState } from 'react';
import { type RemoteCheck, remoteUrlProblem } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { SecretPicker } from './SecretPicker';
import { secretNameProblem } from './SecretsSettings';
import { Badge, ErrorLine, Field, useAction, useEscape } from '../../ui/widgets';
import { useFocusOnOpen } from '../../ui/form-errors';

type KeySource = 'paste' | 'stored';

/** The secret a pasted key is stored as unless named otherwise: "remote-build-box-key". */
export const suggestedSecretName = (remoteName: string): string => {
  const slug = remoteName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80);
  return slug ? `remote-${slug}-key` : 'remote-key';
};

/** What a successful test found, in words: "Steward 1.4.0 · 12 ms · 2 instances". */
export function checkSummary(check: RemoteCheck): string {
  const instances = check.instanceCount === 1 ? '1 instance' : `${check.instanceCount} instances`;
  return [check.version ? `Steward ${check.version}` : undefined, check.latencyMs === null ? undefined : `${check.latencyMs} ms`, instances].filter(Boolean).join(' · ');
}

function CheckResult({ check }: { check: RemoteCheck }) {
  if (check.state === 'connected') {
    return <div className="check-result" role="status"><Badge status="connected" /> {checkSummary(check)}</div>;
  }
  return <div className="check-result" role="alert"><Badge status={check.state} /> <span className="error">{check.error}</span></div>;
}

export function AddRemoteForm({ onDone }: { onDone: () => void }) {
  const { secrets, addRemote, checkRemote, toast } = useApp();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [urlLeft, setUrlLeft] = useState(false);
  const [source, setSource] = useState<KeySource>('paste');
  const [chosenSecret, setChosenSecret] = useState<string | undefined>();
  const [pastedKey, setPastedKey] = useState('');
  const [typedSecretName, setTypedSecretName] = useState<string | undefined>();
  const [checked, setChecked] = useState<'test' | 'add' | undefined>();
  const [check, setCheck] = useState<RemoteCheck | undefined>();
  const action = useAction();
  useFocusOnOpen(action.formRef);
  useEscape(true, onDone);

  const newSecretName = typedSecretName ?? suggestedSecretName(name);
  const replacing = secrets.some((secret) => secret.name === newSecretName);
  const urlText = url.trim();
  const urlCheck = urlText === '' ? 'Enter its address, e.g. https://steward.example.com.' : remoteUrlProblem(urlText) && `The URL ${remoteUrlProblem(urlText)}.`;
  // A problem shows once the field is left or a button pressed, and follows the typing from then on.
  const problems = {
    name: checked === 'add' && name.trim() === '' ? 'Give the remote a name, e.g. Build server.' : undefined,
    url: checked || (urlLeft && urlText !== '') ? urlCheck : undefined,
    secret: checked && source === 'stored' && !chosenSecret ? 'Choose the secret that holds its API key.' : undefined,
    pastedKey: checked && source === 'paste' && pastedKey === '' ? 'Paste an API key of that Steward (made there in Settings → API keys).' : undefined,
    secretName: checked && source === 'paste' ? secretNameProblem(newSecretName) : undefined,
  };
  /** Any edit makes an earlier test's result stale. */
  const edited = <T,>(set: (value: T) => void) => (value: T) => {
    set(value);
    setCheck(undefined);
  };
  const editKey = edited;
  const ready = (what: 'test' | 'add') => {
    setChecked(what);
    const keyBad = source === 'stored' ? !chosenSecret : pastedKey === '' || secretNameProblem(newSecretName) !== undefined;
    return !urlCheck && !keyBad && (what === 'test' || name.trim() !== '');
  };
  const test = async () => {
    setCheck(undefined);
    if (!ready('test')) return action.refused();
    const found = await action.run(async () => checkRemote(urlText, source === 'stored' ? { apiKeyRef: chosenSecret ?? '' } : { apiKey: pastedKey }));
    if (found) setCheck(found);
  };
  const add = async () => {
    if (!ready('add')) return action.refused();
    // A pasted key goes with the add and is stored only if the remote is: a refused add stores nothing.
    const key = source === 'stored' ? { apiKeyRef: chosenSecret ?? '' } : { apiKeyRef: newSecretName, apiKey: pastedKey };
    const added = await action.run(async () => addRemote({ name: name.trim(), url: urlText, ...key }));
    if (!added) return;
    toast('success', `Following ${added.name}: its instances show in Instances.`);
    onDone();
  };

  return (
    <form noValidate ref={action.formRef} className="card nested" aria-label="Add a remote Steward" onSubmit={(event) => { event.preventDefault(); void add(); }}>
      <div className="grid-2">
        <Field label="Remote name" error={problems.name ?? action.errorFor('name')}>
          <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Build server" />
        </Field>
        <Field label="Remote URL" error={problems.url ?? action.errorFor('url')} hint="https://, or http:// on this machine (127.0.0.1, localhost).">
          <input className="mono" type="url" autoComplete="off" value={url} onChange={(event) => edited(setUrl)(event.target.value)} onBlur={() => setUrlLeft(true)} placeholder="https://steward.example.com" />
        </Field>
      </div>
      <fieldset>
        <legend>Its API key</legend>
        <label className="switch"><input type="radio" name="remote-key-source" checked={source === 'paste'} onChange={() => editKey(setSource)('paste')} /> Paste a key</label>{' '}
        <label className="switch"><input type="radio" name="remote-key-source" checked={source === 'stored'} onChange={() => editKey(setSource)('stored')} /> A stored secret</label>
        {source === 'paste' ? (
          <div className="grid-2">
            <Field label="API key" error={problems.pastedKey} hint="An admin key made on that Steward. Stored encrypted here; it is only ever sent to that Steward.">
              <input type="password" autoComplete="off" value={pastedKey} onChange={(event) => editKey(setPastedKey)(event.target.value)} />
            </Field>
            <Field label="Store it as" error={problems.secretName ?? action.errorFor('apiKeyRef')} warning={replacing ? `A secret named ${newSecretName} is stored: the pasted key replaces it.` : undefined}>
              <input className="mono" autoComplete="off" value={newSecretName} onChange={(event) => editKey(setTypedSecretName)(event.target.value)} />
            </Field>
          </div>
        ) : (
          <Field label="Secret" error={problems.secret ?? action.errorFor('apiKeyRef')}>
            <SecretPicker value={chosenSecret} onChange={editKey(setChosenSecret)} noneLabel="Choose a secret…" />
          </Field>
        )}
      </fieldset>
      {check && <CheckResult check={check} />}
      <ErrorLine message={action.generalError(['name', 'url', 'apiKeyRef'])} />
      <div className="row">
        <button type="button" onClick={() => void test()} disabled={action.busy}>Test connection</button>
        <button type="submit" className="primary" disabled={action.busy}>Add remote</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}
