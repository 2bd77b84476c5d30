// The webhook form: name, sender preset (at creation), template (with a warning while it does not
// use the payload), payload limit, filter, fencing, signature check (saved as shown, or not at all),
// instance, memory, notify, approval before each run, retries. One that came from a file asks first
// whether the change goes back to the file (ManagedSave).
import { useState } from 'react';
import { type Memory, type NotifyOverride, type Sender, type Webhook, noApproval, noRetry, senders } from '../../../../shared/contract';
import { senderPresets } from '../../../../shared/webhook-senders';
import { parseTemplate, usesPayload } from '../../../../shared/webhook-template';
import { unknownPlaceholderProblem } from '../../../../shared/placeholders';
import { useApp } from '../../lib/app-context';
import { InstanceField, useDefaultInstanceId } from '../instances/InstanceField';
import { type ShownCheck, SignatureField, signatureOf } from './SignatureField';
import { RetryFields, useRetryDraft } from '../reliability/RetryFields';
import { ApprovalFields, useApprovalDraft } from '../approvals/ApprovalFields';
import { ErrorLine, Field, MemoryField, NotifyField, useAction, useEscape } from '../../ui/widgets';
import { useFocusOnOpen } from '../../ui/form-errors';
import { useManagedSave } from '../config/ManagedSave';

const genericTemplate = 'A delivery arrived:\n\n{{payload}}';
const templateOf = (sender: Sender) => senderPresets[sender].promptTemplate ?? genericTemplate;
const filterExample = '[{"header": "x-github-event", "equals": "workflow_run"}, {"payload": "workflow_run.conclusion", "in": ["failure"]}]';

export function WebhookEditor({ webhook, onDone }: { webhook?: Webhook | undefined; onDone: () => void }) {
  useEscape(true, onDone);
  const { saveWebhook } = useApp();
  const defaultInstanceId = useDefaultInstanceId();
  const [name, setName] = useState(webhook?.name ?? '');
  const [sender, setSender] = useState<Sender>(webhook?.sender ?? 'generic');
  const [promptTemplate, setTemplate] = useState(webhook?.promptTemplate ?? genericTemplate);
  const [maxPayloadBytes, setMaxPayloadBytes] = useState(webhook ? String(webhook.maxPayloadBytes) : '');
  const [filter, setFilter] = useState(webhook && webhook.filter.length > 0 ? JSON.stringify(webhook.filter, null, 2) : '');
  const [fencePayload, setFencePayload] = useState(webhook?.fencePayload ?? false);
  // A new webhook's check starts from its sender's scheme, which then needs its secret.
  const [check, setCheck] = useState<ShownCheck>({ scheme: webhook?.signature?.scheme ?? senderPresets[webhook?.sender ?? 'generic'].signatureScheme ?? 'none', secret: '' });
  const [checkError, setCheckError] = useState<string>();
  const [instanceId, setInstanceId] = useState(webhook?.instanceId ?? defaultInstanceId);
  const [notify, setNotify] = useState<NotifyOverride>(webhook?.notify ?? 'default');
  const [memory, setMemory] = useState<Memory>(webhook?.memory ?? 'fresh');
  const [filterError, setFilterError] = useState<string>();
  const retryDraft = useRetryDraft(webhook?.retry ?? noRetry);
  const approvalDraft = useApprovalDraft(webhook?.approval ?? noApproval);
  const action = useAction();
  const managed = useManagedSave(webhook?.id);
  useFocusOnOpen(action.formRef);

  const chooseSender = (next: Sender) => {
    // A template, or a scheme, still as the last preset left it follows the new preset.
    if (promptTemplate === templateOf(sender)) setTemplate(templateOf(next));
    if (check.scheme === (senderPresets[sender].signatureScheme ?? 'none')) setCheck({ ...check, scheme: senderPresets[next].signatureScheme ?? 'none' });
    setSender(next);
  };

  const showCheck = (shown: ShownCheck) => {
    setCheck(shown);
    setCheckError(undefined);
  };

  // Flagged as one types, with the rule the API refuses by: a typo is never sent as written.
  const placeholderProblem = unknownPlaceholderProblem(promptTemplate, 'webhook');
  const save = () => {
    // Every section is checked, so that every problem shows at once; the first takes the focus.
    let conditions: unknown;
    let filterOk = true;
    try {
      conditions = filter.trim() === '' ? [] : JSON.parse(filter);
      setFilterError(undefined);
    } catch {
      setFilterError(`The filter is not valid JSON; for example ${filterExample}`);
      filterOk = false;
    }
    // What the check shows is what is saved, or nothing is.
    const signature = signatureOf(check, webhook?.signature);
    setCheckError(signature.problem);
    const retry = retryDraft.ready();
    const approval = approvalDraft.ready();
    if (!filterOk || signature.problem || !retry || !approval || placeholderProblem) return action.refused();
    const body: Record<string, unknown> = { name, promptTemplate, notify, memory, retry, approval, filter: conditions, fencePayload, ...(instanceId ? { instanceId } : {}) };
    if (!webhook) body.sender = sender;
    if (maxPayloadBytes.trim() !== '') body.maxPayloadBytes = Number(maxPayloadBytes);
    if (signature.value !== undefined) body.signature = signature.value;
    managed.submit(async () => (await action.run(() => saveWebhook(webhook?.id, body))) !== undefined, onDone);
  };

  const usesThePayload = usesPayload(parseTemplate(promptTemplate).value);
  const fields = ['name', 'promptTemplate', 'instanceId', 'notify', 'memory', 'maxPayloadBytes', 'filter', 'signature', 'sender', 'retry', 'approval'];
  return (
    <form noValidate ref={action.formRef} className="card" aria-label={webhook ? `Edit ${webhook.name}` : 'New webhook'} onSubmit={(event) => { event.preventDefault(); save(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input value={name} onChange={(event) => { setName(event.target.value); action.clearFor('name'); }} placeholder="GitHub pushes" />
      </Field>
      {!webhook && (
        <Field label="Sender" error={action.errorFor('sender')} hint="GitHub, Stripe and Slack fill in their signature scheme, a 1 MiB limit, the idempotency key and a template; every field stays yours to change.">
          <select value={sender} onChange={(event) => chooseSender(event.target.value as Sender)}>
            {senders.map((each) => <option key={each} value={each}>{each}</option>)}
          </select>
        </Field>
      )}
      <Field
        label="Prompt template"
        error={action.errorFor('promptTemplate') ?? placeholderProblem}
        warning={usesThePayload ? undefined : 'The template has no {{payload}} (nor a field such as {{payload.action}}): the request body will not reach the agent.'}
        hint="{{payload}} is the request body exactly as sent; {{payload.a.b[0]}} one field of it; {{headers.x-github-event}} one header; {{query.name}} one query parameter."
      >
        <textarea value={promptTemplate} onChange={(event) => setTemplate(event.target.value)} />
      </Field>
      <Field label="Largest body (bytes)" error={action.errorFor('maxPayloadBytes')} hint={`Default ${senderPresets[sender].maxPayloadBytes.toLocaleString()}; at most 1,048,576.`}>
        <input type="number" min={1} max={1_048_576} value={maxPayloadBytes} onChange={(event) => setMaxPayloadBytes(event.target.value)} placeholder={String(senderPresets[sender].maxPayloadBytes)} />
      </Field>
      <Field label="Filter" error={filterError ?? action.errorFor('filter')} hint={`Conditions that must all hold, as JSON; others are skipped (and recorded). For example ${filterExample}`}>
        <textarea className="mono" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="[]" />
      </Field>
      <label className="switch">
        <input type="checkbox" checked={fencePayload} onChange={(event) => setFencePayload(event.target.checked)} />
        Fence inserted payloads as untrusted data (recommended when outsiders can write into them: issues, comments, messages)
      </label>
      <SignatureField shown={check} stored={webhook?.signature} onChange={showCheck} error={checkError ?? action.errorFor('signature') ?? action.errorFor('signature.scheme')} />
      <InstanceField value={instanceId} onChange={setInstanceId} error={action.errorFor('instanceId')} madeOn={webhook?.instanceId} />
      <MemoryField value={memory} onChange={setMemory} error={action.errorFor('memory')} />
      <NotifyField value={notify} onChange={setNotify} error={action.errorFor('notify')} />
      <ApprovalFields approval={approvalDraft} errorFor={action.errorFor} />
      <RetryFields retry={retryDraft} errorFor={action.errorFor} />
      <ErrorLine message={action.generalError(fields)} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>{webhook ? 'Save' : 'Create webhook'}</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
      {managed.dialog}
    </form>
  );
}
