// The automation form: name, prompt, when (a schedule or after another automation), instance,
// memory, missed runs, notifications, approval before each run, retries and budget. A field the form refuses saves nothing.
import { useState } from 'react';
import { type Automation, type Memory, type NotifyOverride, noApproval, noRetry } from '../../../../shared/contract';
import { InstanceField, useDefaultInstanceId } from '../instances/InstanceField';
import { RetryFields, useRetryDraft } from '../reliability/RetryFields';
import { BudgetFields, useBudgetDraft } from '../reliability/BudgetFields';
import { ApprovalFields, useApprovalDraft } from '../approvals/ApprovalFields';
import { WhenFields, localZone, useWhenDraft } from './WhenFields';
import { ErrorLine, Field, MemoryField, NotifyField, useAction, useEscape } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { quotesPreviousRun, unknownPlaceholderProblem } from '../../../../shared/placeholders';

const fields = ['name', 'prompt', 'cronExpression', 'trigger', 'timezone', 'instanceId', 'notify', 'memory', 'catchUp', 'retry', 'budget', 'approval'];

export function AutomationEditor({ automation, onDone }: { automation?: Automation | undefined; onDone: () => void }) {
  const { saveAutomation, automations, instances, toast } = useApp();
  const defaultInstanceId = useDefaultInstanceId();
  const [name, setName] = useState(automation?.name ?? '');
  const [prompt, setPrompt] = useState(automation?.prompt ?? '');
  const [timezone, setTimezone] = useState(automation?.timezone ?? localZone);
  const [instanceId, setInstanceId] = useState(automation?.instanceId ?? defaultInstanceId);
  const [notify, setNotify] = useState<NotifyOverride>(automation?.notify ?? 'default');
  const [memory, setMemory] = useState<Memory>(automation?.memory ?? 'fresh');
  const [catchUp, setCatchUp] = useState<Automation['catchUp']>(automation?.catchUp ?? 'latest');
  const when = useWhenDraft(automation);
  const retry = useRetryDraft(automation?.retry ?? noRetry);
  const budget = useBudgetDraft(automation?.budget ?? {});
  const approval = useApprovalDraft(automation?.approval ?? noApproval);
  const action = useAction();
  useEscape(true, onDone);
  // Flagged as one types, with the rule the API refuses by: a typo is never sent as written.
  const placeholderProblem = unknownPlaceholderProblem(prompt, 'automation');
  const previousUnfilled = when.draft.mode === 'schedule' && quotesPreviousRun(prompt) ? 'On a schedule, {{previous.…}} is sent as written: only an automation that runs after another fills it.' : undefined;
  const save = async () => {
    // Each section marks its own problems; all are checked so that every one shows at once.
    const schedule = when.ready();
    const retryPolicy = retry.ready();
    const budgetLimits = budget.ready();
    const approvalPolicy = approval.ready();
    if (!schedule || !retryPolicy || !budgetLimits || !approvalPolicy || placeholderProblem) return action.refused();
    const body = { name, prompt, ...schedule, timezone, notify, memory, catchUp, retry: retryPolicy, budget: budgetLimits, approval: approvalPolicy, ...(instanceId ? { instanceId } : {}) };
    const saved = await action.run(() => saveAutomation(automation?.id, body));
    if (!saved) return toast('failure', automation ? `${automation.name} was not saved.` : 'The automation was not created.');
    toast('success', automation ? `${saved.name} saved.` : `${saved.name} created.`);
    onDone();
  };
  return (
    <form noValidate ref={action.formRef} className="card" aria-label={automation ? `Edit ${automation.name}` : 'New automation'} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input autoFocus value={name} onChange={(event) => { setName(event.target.value); action.clearFor('name'); }} placeholder="Morning triage" />
      </Field>
      <Field label="Prompt" error={action.errorFor('prompt') ?? placeholderProblem} warning={previousUnfilled} hint="What the agent is asked each time it runs.">
        <textarea value={prompt} onChange={(event) => { setPrompt(event.target.value); action.clearFor('prompt'); }} placeholder="Look at yesterday's failed CI runs and summarise them." />
      </Field>
      <WhenFields when={when} timezone={timezone} onTimezone={setTimezone} others={automations.filter((each) => each.id !== automation?.id)} errorFor={action.errorFor} clearFor={action.clearFor} />
      <InstanceField value={instanceId} onChange={setInstanceId} error={action.errorFor('instanceId')} madeOn={automation?.instanceId} />
      <MemoryField value={memory} onChange={setMemory} error={action.errorFor('memory')} />
      {when.draft.mode === 'schedule' && (
        <Field label="Missed runs" error={action.errorFor('catchUp')} hint="When Steward was not running (or paused) at a scheduled time.">
          <select value={catchUp} onChange={(event) => setCatchUp(event.target.value as Automation['catchUp'])}>
            <option value="latest">Run the latest missed one (if at most 24 h late)</option>
            <option value="skip">Skip them all</option>
          </select>
        </Field>
      )}
      <NotifyField value={notify} onChange={setNotify} error={action.errorFor('notify')} />
      <ApprovalFields approval={approval} errorFor={action.errorFor} />
      <RetryFields retry={retry} errorFor={action.errorFor} />
      <BudgetFields budget={budget} errorFor={action.errorFor} agent={instances.find((each) => each.id === instanceId)?.agent} dayIn={`its timezone (${timezone})`} />
      <ErrorLine message={action.generalError(fields)} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>{automation ? 'Save' : 'Create automation'}</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}
