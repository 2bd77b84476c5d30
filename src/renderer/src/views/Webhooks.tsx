// Webhooks: the template (with a warning while {{payload}} is missing), the trigger URL to copy, a
// curl example, a test payload, token regeneration that says the old URL dies, on/off, and the
// recent deliveries (its runs).
import { useState } from 'react';
import type { Memory, NotifyOverride, Webhook } from '../../../shared/contract';
import { InstanceField, useDefaultInstanceId } from '../components/InstanceField';
import { Badge, ConfirmButton, Empty, ErrorLine, Field, MemoryField, NotifyField, formatTime, useAction } from '../components/ui';
import { useApp } from '../lib/app-context';

function Editor({ webhook, onDone }: { webhook?: Webhook; onDone: () => void }) {
  const { saveWebhook } = useApp();
  const defaultInstanceId = useDefaultInstanceId();
  const [name, setName] = useState(webhook?.name ?? '');
  const [promptTemplate, setTemplate] = useState(webhook?.promptTemplate ?? 'A delivery arrived:\n\n{{payload}}');
  const [instanceId, setInstanceId] = useState(webhook?.instanceId ?? defaultInstanceId);
  const [notify, setNotify] = useState<NotifyOverride>(webhook?.notify ?? 'default');
  const [memory, setMemory] = useState<Memory>(webhook?.memory ?? 'fresh');
  const action = useAction();
  const save = async () => {
    const saved = await action.run(() => saveWebhook(webhook?.id, { name, promptTemplate, notify, memory, ...(instanceId ? { instanceId } : {}) }));
    if (saved) onDone();
  };
  return (
    <form className="card" aria-label={webhook ? `Edit ${webhook.name}` : 'New webhook'} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="GitHub pushes" />
      </Field>
      <Field label="Prompt template" error={action.errorFor('promptTemplate')} warning={promptTemplate.includes('{{payload}}') ? undefined : 'The template has no {{payload}}: the request body will not reach the agent.'} hint="{{payload}} is replaced by the request body, exactly as sent.">
        <textarea value={promptTemplate} onChange={(event) => setTemplate(event.target.value)} />
      </Field>
      <InstanceField value={instanceId} onChange={setInstanceId} error={action.errorFor('instanceId')} />
      <MemoryField value={memory} onChange={setMemory} error={action.errorFor('memory')} />
      <NotifyField value={notify} onChange={setNotify} error={action.errorFor('notify')} />
      <ErrorLine message={action.generalError(['name', 'promptTemplate', 'instanceId', 'notify', 'memory'])} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>{webhook ? 'Save' : 'Create webhook'}</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

function Detail({ webhook }: { webhook: Webhook }) {
  const { saveWebhook, deleteWebhook, testWebhook, runs, navigate } = useApp();
  const [copied, setCopied] = useState(false);
  const [payload, setPayload] = useState('{"hello": "from Steward"}');
  const action = useAction();
  const url = webhook.publicTriggerUrl ?? webhook.triggerUrl;
  const deliveries = runs.filter((run) => run.sourceId === webhook.id).slice(0, 10);
  const copy = async () => {
    await navigator.clipboard.writeText(url).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <>
      <div className="row">
        <span className="hint">Trigger URL</span>
        <code data-testid="trigger-url">{url}</code>
        <button onClick={() => void copy()} aria-label={`Copy the trigger URL of ${webhook.name}`}>{copied ? 'Copied' : 'Copy'}</button>
      </div>
      <pre aria-label="curl example">{`curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"event": "example"}'`}</pre>
      <div className="row">
        <input aria-label="Test payload" className="mono" value={payload} onChange={(event) => setPayload(event.target.value)} />
        <button onClick={() => void action.run(async () => navigate(`/runs/${await testWebhook(webhook.id, payload)}`))}>Send test payload</button>
      </div>
      <ErrorLine message={action.error?.message} />
      <div className="bar" style={{ marginTop: 8 }}>
        <label className="switch">
          <input type="checkbox" role="switch" checked={webhook.enabled} aria-label={`${webhook.name} enabled`} onChange={(event) => void action.run(() => saveWebhook(webhook.id, { enabled: event.target.checked }))} />
          {webhook.enabled ? 'Enabled' : 'Disabled'}
        </label>
        <ConfirmButton label="Regenerate token" question="The old trigger URL stops working at once. Regenerate?" confirm="Regenerate" onConfirm={() => void action.run(() => saveWebhook(webhook.id, { regenerateToken: true }))} />
        <button onClick={() => navigate(`/threads/${webhook.threadId}`)}>History</button>
        <ConfirmButton label="Delete" danger question={`Delete ${webhook.name}? Its URL stops working.`} confirm="Delete" onConfirm={() => void action.run(() => deleteWebhook(webhook.id))} />
      </div>
      <h3>Recent deliveries</h3>
      {deliveries.length === 0 ? <div className="hint">None yet. Send a test payload, or call the URL.</div> : (
        <table>
          <tbody>
            {deliveries.map((run) => (
              <tr key={run.id}>
                <td><a href={`#/runs/${run.id}`}>{formatTime(run.createdAt)}</a></td>
                <td><Badge status={run.status} /></td>
                <td className="hint">{run.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function Webhooks() {
  const { webhooks } = useApp();
  const [editing, setEditing] = useState<string | undefined>();
  return (
    <section aria-labelledby="webhooks-title">
      <div className="bar">
        <h2 id="webhooks-title">Webhooks</h2>
        <span className="spacer" />
        <button className="primary" onClick={() => setEditing('new')}>New webhook</button>
      </div>
      {editing === 'new' && <Editor onDone={() => setEditing(undefined)} />}
      {webhooks.length === 0 && editing !== 'new' ? (
        <Empty title="No webhooks yet">
          A webhook is a secret URL: when GitHub, Stripe or a script calls it, an agent gets your prompt with the request body in it. <button onClick={() => setEditing('new')}>Create one</button>
        </Empty>
      ) : (
        webhooks.map((webhook) => (
          <article className="card" key={webhook.id} aria-label={webhook.name}>
            {editing === webhook.id ? <Editor webhook={webhook} onDone={() => setEditing(undefined)} /> : (
              <>
                <div className="row">
                  <strong>{webhook.name}</strong>
                  <span className="spacer" />
                  <button onClick={() => setEditing(webhook.id)}>Edit</button>
                </div>
                <Detail webhook={webhook} />
              </>
            )}
          </article>
        ))
      )}
    </section>
  );
}
