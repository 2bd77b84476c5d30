// Webhooks: the form (WebhookEditor), the trigger URL to copy, the check in force, whether its runs
// wait for a person, a curl example (signed, for a signed webhook), a test payload, token
// regeneration that says the old URL dies, on/off (asking first for one that came from a file), the
// file it came from, and the deliveries.
import { useState } from 'react';
import type { Webhook } from '../../../../shared/contract';
import { curlExample } from './curl-example';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookEditor as Editor } from './WebhookEditor';
import { ConfirmButton, CopyButton, Empty, ErrorLine, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { FromFile } from '../config/FromFile';
import { useManagedSave } from '../config/ManagedSave';

const duration = (seconds: number) => (seconds % 3600 === 0 ? `${seconds / 3600} h` : seconds >= 60 ? `${Math.round(seconds / 60)} min` : `${seconds} s`);

function Detail({ webhook }: { webhook: Webhook }) {
  const { saveWebhook, deleteWebhook, testWebhook, navigate } = useApp();
  const [copied, setCopied] = useState(false);
  const [payload, setPayload] = useState('{"hello": "from Steward"}');
  const [skipped, setSkipped] = useState<string>();
  const action = useAction();
  const managed = useManagedSave(webhook.id);
  const url = webhook.publicTriggerUrl ?? webhook.triggerUrl ?? '';
  const example = curlExample(url, webhook.signature?.scheme ?? null, webhook.sender);
  const test = async () => {
    const outcome = await action.run(() => testWebhook(webhook.id, payload));
    setSkipped(outcome?.skipped ? `The filter skipped it: ${outcome.reason ?? ''}` : undefined);
    if (outcome?.run) navigate(`/runs/${outcome.run.id}`);
  };
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
      <div className="row" data-testid="check-in-force">
        <span className="hint">Check</span>
        <span>{webhook.checkInForce}</span>
      </div>
      {webhook.approval.mode === 'before-run' && (
        <div className="row" data-testid="approval-in-force">
          <span className="hint">Approval</span>
          <span>Asks you before each run: a run waits in Needs you until you allow it (unanswered for {duration(webhook.approval.timeoutSeconds)}, it is cancelled).</span>
        </div>
      )}
      <div className="row">
        <span className="hint">{webhook.signature ? 'curl example, signed with your secret as $WEBHOOK_SECRET' : 'curl example'}</span>
        <span className="spacer" />
        <CopyButton text={example} label="Copy example" />
      </div>
      <pre className="curl-example" aria-label="curl example" tabIndex={0}>{example}</pre>
      <div className="row">
        <input aria-label="Test payload" className="mono" value={payload} onChange={(event) => setPayload(event.target.value)} />
        <button onClick={() => void test()}>Send test payload</button>
      </div>
      {skipped && <div className="hint">{skipped}</div>}
      <ErrorLine message={action.error?.message} />
      <div className="bar" style={{ marginTop: 8 }}>
        <label className="switch">
          <input type="checkbox" role="switch" checked={webhook.enabled} aria-label={`${webhook.name} enabled`} onChange={(event) => { const enabled = event.target.checked; managed.submit(async () => (await action.run(() => saveWebhook(webhook.id, { enabled }))) !== undefined, () => undefined); }} />
          {webhook.enabled ? 'Enabled' : 'Disabled'}
        </label>
        <ConfirmButton label="Regenerate token" question="The old trigger URL stops working at once. Regenerate?" confirm="Regenerate" onConfirm={() => void action.run(() => saveWebhook(webhook.id, { regenerateToken: true }))} />
        <button onClick={() => navigate(`/threads/${webhook.threadId}`)}>History</button>
        <ConfirmButton label="Delete" danger question={`Delete ${webhook.name}? Its URL stops working.`} confirm="Delete" onConfirm={() => void action.run(() => deleteWebhook(webhook.id))} />
      </div>
      <WebhookDeliveries webhook={webhook} />
      {managed.dialog}
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
                  <FromFile id={webhook.id} />
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
