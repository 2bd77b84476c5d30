// "Run notifications" in Settings: the channels (kind, name, which outcomes and runs, the last
// delivery with a visible failed badge and its error), add and edit, a new signing secret shown
// once with a copy button, Send test with its outcome, delete with confirmation, and a channel's
// recent deliveries.
import { useEffect, useState } from 'react';
import type { NotificationChannel, NotificationDelivery } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { ChannelEditor, kindNames } from './ChannelEditor';
import { instanceLabel } from '../instances/instance-label';
import { Badge, ConfirmButton, CopyButton, ErrorLine, Field, Time, useAction } from '../../ui/widgets';
import { ScrollBox } from '../../ui/ScrollBox';

const onNames: Record<NotificationChannel['on'], string> = { failures: 'failures', successes: 'successes', attention: 'runs that need attention', all: 'every finished run' };

function useSourceNames(): (channel: NotificationChannel) => string {
  const { automations, webhooks, instances } = useApp();
  return (channel) => {
    if (channel.sources.length === 0) return 'every run';
    const lists = { automation: automations, webhook: webhooks, instance: instances.map((instance) => ({ id: instance.id, name: instanceLabel(instance) })) };
    return channel.sources.map((source) => `${source.type} ${lists[source.type].find((each) => each.id === source.id)?.name ?? '(deleted)'}`).join(', ');
  };
}

/** A delivery's outcome in words: "delivered (200)", "failed after 6 attempts: …". */
export function deliveryOutcome(delivery: Pick<NotificationDelivery, 'status' | 'attempts' | 'lastStatusCode' | 'lastError'>): string {
  const code = delivery.lastStatusCode === null ? '' : ` (${delivery.lastStatusCode})`;
  if (delivery.status === 'delivered') return `delivered${code}`;
  const tries = delivery.attempts === 1 ? '1 attempt' : `${delivery.attempts} attempts`;
  if (delivery.status === 'pending') return delivery.attempts === 0 ? 'sending' : `retrying after ${tries}${delivery.lastError ? `: ${delivery.lastError}` : ''}`;
  return `failed after ${tries}${code}${delivery.lastError ? `: ${delivery.lastError}` : ''}`;
}

function ChannelDeliveries({ channel }: { channel: NotificationChannel }) {
  const { channelDeliveries, loadChannelDeliveries } = useApp();
  const deliveries = channelDeliveries[channel.id];
  useEffect(() => {
    void loadChannelDeliveries(channel.id).catch(() => undefined);
  }, [channel.id, loadChannelDeliveries]);
  if (!deliveries) return <div className="hint">Loading…</div>;
  if (deliveries.length === 0) return <div className="hint">Nothing sent yet.</div>;
  return (
    <ScrollBox label={`Deliveries to ${channel.name}, the table`}>
    <table aria-label={`Deliveries to ${channel.name}`}>
      <thead><tr><th>When</th><th>About</th><th>Status</th><th>Code</th><th>Attempts</th><th>Error</th></tr></thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td><Time iso={delivery.finishedAt ?? delivery.createdAt} /></td>
            <td>{delivery.runId ? <a href={`#/runs/${delivery.runId}`}>{delivery.event}</a> : delivery.event}</td>
            <td><Badge status={delivery.status} /></td>
            <td>{delivery.lastStatusCode ?? '—'}</td>
            <td>{delivery.attempts}</td>
            <td className="hint">{delivery.lastError ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
    </ScrollBox>
  );
}

/** Where run links in notifications point: the setting, saved on blur; empty is Steward's own URL. */
function LinkBaseField() {
  const { settings, system, updateSettings, toast } = useApp();
  const action = useAction();
  const current = settings?.notifications.linkBaseUrl ?? null;
  const save = async (text: string) => {
    const value = text.trim() === '' ? null : text.trim();
    if (value === current) return;
    const done = await action.run(async () => updateSettings({ notifications: { linkBaseUrl: value } }).then(() => true));
    if (done) toast('success', 'Link address saved.');
  };
  return (
    <Field label="Run links point to" error={action.errorFor('notifications.linkBaseUrl') ?? action.error?.message} hint={`Empty: this Steward's own address${system ? ` (${system.apiUrl})` : ''}. Set it when receivers reach Steward elsewhere.`}>
      <input className="mono" type="url" key={current ?? ''} defaultValue={current ?? ''} placeholder="https://steward.example.com" onBlur={(event) => void save(event.target.value)} />
    </Field>
  );
}

export function NotificationChannels() {
  const { channels, loadChannels, deleteChannel, testChannel, toast } = useApp();
  const [editing, setEditing] = useState<NotificationChannel | 'new' | undefined>();
  const [secret, setSecret] = useState<{ channel: string; value: string } | undefined>();
  const [tested, setTested] = useState<string | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const sourceNames = useSourceNames();
  const action = useAction();
  useEffect(() => {
    void loadChannels().catch(() => undefined);
  }, [loadChannels]);

  const sendTest = async (channel: NotificationChannel) => {
    setTested(undefined);
    const delivery = await action.run(() => testChannel(channel.id));
    if (delivery) setTested(`Test to ${channel.name}: ${deliveryOutcome(delivery)}`);
  };
  const saved = (name: string) => (signingSecret: string | null) => {
    if (signingSecret) setSecret({ channel: name, value: signingSecret });
    setEditing(undefined);
  };

  return (
    <div className="card">
      <div className="bar">
        <h3 id="run-notifications-title">Run notifications</h3>
        <span className="spacer" />
        <button onClick={() => void action.run(loadChannels)}>Refresh</button>
        <button onClick={() => setEditing('new')}>Add channel</button>
      </div>
      <div className="hint" style={{ marginBottom: 8 }}>Tell other systems when runs finish: a signed webhook, an ntfy topic, Slack or Discord. Failed deliveries are retried and never affect the run.</div>
      {secret && (
        <div className="card nested row wrap" role="status">
          <span>Signing secret of {secret.channel}: copy it now, it is not shown again.</span> <code data-testid="signing-secret">{secret.value}</code>
          <CopyButton text={secret.value} label="Copy secret" />
          <button type="button" onClick={() => setSecret(undefined)}>Done</button>
        </div>
      )}
      {tested && <div className="hint" role="status">{tested}</div>}
      <ErrorLine message={action.error?.message} />
      {editing && <ChannelEditor key={editing === 'new' ? 'new' : editing.id} channel={editing === 'new' ? undefined : editing} onSaved={saved(editing === 'new' ? 'the new channel' : editing.name)} onCancel={() => setEditing(undefined)} />}
      {channels.length === 0 ? <div className="hint">No channels: runs notify only this desktop.</div> : (
        <ScrollBox label="Notification channels, the table">
        <table aria-labelledby="run-notifications-title">
          <thead><tr><th>Name</th><th>Kind</th><th>Notifies on</th><th>Runs</th><th>Last delivery</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {channels.map((channel) => (
              <tr key={channel.id}>
                <td>{channel.name}{channel.enabled ? '' : <span className="hint"> (off)</span>}<div className="hint mono">{channel.url}</div></td>
                <td>{kindNames[channel.kind]}</td>
                <td>{onNames[channel.on]}</td>
                <td>{sourceNames(channel)}</td>
                <td>
                  {channel.lastDelivery ? (
                    <>
                      <Badge status={channel.lastDelivery.status} /> <Time iso={channel.lastDelivery.at} />
                      {channel.lastDelivery.status === 'failed' && channel.lastDelivery.error && <div className="error">{channel.lastDelivery.error}</div>}
                    </>
                  ) : <span className="hint">none yet</span>}
                </td>
                <td className="actions">
                  <button aria-label={`Send test to ${channel.name}`} disabled={action.busy} onClick={() => void sendTest(channel)}>Send test</button>
                  <button aria-label={`Edit ${channel.name}`} onClick={() => setEditing(channel)}>Edit</button>
                  <button aria-label={`Deliveries to ${channel.name}`} aria-expanded={open === channel.id} onClick={() => setOpen(open === channel.id ? undefined : channel.id)}>Deliveries</button>
                  <ConfirmButton label="Delete" danger question={`Delete ${channel.name} and its delivery log?`} confirm="Delete" onConfirm={() => void action.run(async () => { await deleteChannel(channel.id); toast('success', `Channel ${channel.name} deleted.`); })} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </ScrollBox>
      )}
      {open && channels.some((channel) => channel.id === open) && <ChannelDeliveries channel={channels.find((channel) => channel.id === open)!} />}
      <LinkBaseField />
    </div>
  );
}
