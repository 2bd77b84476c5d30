// The form of a notification channel: kind (fixed once made), name, URL, which outcomes, which
// runs (every run, or chosen automations, webhooks and instances), an ntfy token, enabled.
// Slack and Discord URLs are secrets: when editing, an empty URL keeps the stored one.
import { useState } from 'react';
import { type ChannelKind, type ChannelOn, type ChannelSource, type NotificationChannel, channelKinds } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { SecretPicker } from './SecretPicker';
import { instanceLabel } from '../instances/instance-label';
import { ErrorLine, Field, useAction, useEscape } from '../../ui/widgets';

export const kindNames: Record<ChannelKind, string> = { webhook: 'Webhook (signed)', ntfy: 'ntfy', slack: 'Slack', discord: 'Discord' };
const urlHints: Record<ChannelKind, string> = {
  webhook: 'Receives a signed JSON event (Standard Webhooks) per run.',
  ntfy: 'The topic URL, e.g. https://ntfy.sh/my-steward-alerts.',
  slack: 'A Slack incoming-webhook URL (https://hooks.slack.com/services/…). Stored encrypted.',
  discord: 'A Discord channel webhook URL. Stored encrypted.',
};
const secretUrl = (kind: ChannelKind) => kind === 'slack' || kind === 'discord';

type SourceType = ChannelSource['type'];
const sameSource = (a: ChannelSource, b: ChannelSource) => a.type === b.type && a.id === b.id;

export function ChannelEditor({ channel, onSaved, onCancel }: { channel?: NotificationChannel; onSaved: (signingSecret: string | null) => void; onCancel: () => void }) {
  const { automations, webhooks, instances, saveChannel, toast } = useApp();
  const [kind, setKind] = useState<ChannelKind>(channel?.kind ?? 'webhook');
  const [name, setName] = useState(channel?.name ?? '');
  const [url, setUrl] = useState(channel && !secretUrl(channel.kind) ? channel.url : '');
  const [on, setOn] = useState<ChannelOn>(channel?.on ?? 'failures');
  const [sources, setSources] = useState<ChannelSource[]>(channel?.sources ?? []);
  const [limited, setLimited] = useState((channel?.sources.length ?? 0) > 0);
  const [tokenRef, setTokenRef] = useState<string | undefined>(channel?.tokenRef ?? undefined);
  const [enabled, setEnabled] = useState(channel?.enabled ?? true);
  const action = useAction();
  useEscape(true, onCancel);
  const choices: [SourceType, string, { id: string; name: string }[]][] = [
    ['automation', 'Automations', automations],
    ['webhook', 'Webhooks', webhooks],
    ['instance', 'Instances (runs on it)', instances.map((instance) => ({ id: instance.id, name: instanceLabel(instance) }))],
  ];
  const toggle = (source: ChannelSource, checked: boolean) => setSources(checked ? [...sources, source] : sources.filter((each) => !sameSource(each, source)));

  const save = async () => {
    const body: Record<string, unknown> = { name, on, enabled, sources: limited ? sources : [] };
    if (!channel) body.kind = kind;
    if (!channel || url !== '') body.url = url;
    if (kind === 'ntfy') body.tokenRef = tokenRef ?? null;
    const saved = await action.run(() => saveChannel(channel?.id, body));
    if (!saved) return;
    toast('success', channel ? `Channel ${saved.channel.name} saved.` : `Channel ${saved.channel.name} added.`);
    onSaved(saved.signingSecret);
  };

  return (
    <form noValidate ref={action.formRef} className="card nested" aria-label={channel ? `Edit ${channel.name}` : 'New notification channel'} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <div className="grid-2">
        <Field label="Kind" hint={channel ? 'A channel keeps its kind; add another for a different one.' : undefined}>
          <select value={kind} disabled={channel !== undefined} onChange={(event) => setKind(event.target.value as ChannelKind)}>
            {channelKinds.map((each) => <option key={each} value={each}>{kindNames[each]}</option>)}
          </select>
        </Field>
        <Field label="Channel name" error={action.errorFor('name')}>
          <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Ops pager" />
        </Field>
      </div>
      <Field label="URL" error={action.errorFor('url')} hint={channel && secretUrl(kind) ? `Stored: ${channel.url} Leave empty to keep it.` : urlHints[kind]}>
        <input className="mono" type="url" autoComplete="off" value={url} onChange={(event) => setUrl(event.target.value)} />
      </Field>
      <div className="grid-2">
        <Field label="Notify on" error={action.errorFor('on')}>
          <select value={on} onChange={(event) => setOn(event.target.value as ChannelOn)}>
            <option value="failures">Failures (failed, timed out, interrupted)</option>
            <option value="attention">Attention (failures, and runs whose agent says they need attention)</option>
            <option value="successes">Successes</option>
            <option value="all">Every finished run</option>
          </select>
        </Field>
        {kind === 'ntfy' && (
          <Field label="Access token (stored secret)" error={action.errorFor('tokenRef')} hint="Sent as a bearer token, for a protected topic.">
            <SecretPicker value={tokenRef} onChange={setTokenRef} />
          </Field>
        )}
      </div>
      <fieldset>
        <legend>Which runs</legend>
        <label className="switch"><input type="radio" name="which-runs" checked={!limited} onChange={() => setLimited(false)} /> Every run</label>{' '}
        <label className="switch"><input type="radio" name="which-runs" checked={limited} onChange={() => setLimited(true)} /> Only runs of these</label>
        {limited && choices.map(([type, title, items]) => (
          <fieldset key={type} className="nested">
            <legend>{title}</legend>
            {items.length === 0 ? <span className="hint">None yet.</span> : items.map((item) => {
              const source = { type, id: item.id };
              return <label key={item.id} className="switch"><input type="checkbox" checked={sources.some((each) => sameSource(each, source))} onChange={(event) => toggle(source, event.target.checked)} /> {item.name}</label>;
            })}
          </fieldset>
        ))}
        <ErrorLine message={action.errorFor('sources')} />
      </fieldset>
      <label className="switch"><input type="checkbox" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> Enabled</label>
      <ErrorLine message={action.generalError(['name', 'url', 'on', 'tokenRef', 'sources'])} />
      <div className="row">
        <button type="submit" className="primary" disabled={action.busy}>{channel ? 'Save channel' : 'Add channel'}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
