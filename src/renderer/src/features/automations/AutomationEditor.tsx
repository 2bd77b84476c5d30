// The automation form: name, prompt, when (a schedule, once, every, after another automation, or an
// event: a folder, a repository, mail, a feed), instance,
// memory, missed runs, notifications, approval before each run, retries and budget. A field the form refuses saves nothing.
// An automation that came from a file asks first whether the change goes back to the file (ManagedSave).
import { useState } from 'react';
import { type Automation, type Memory, type NotifyOverride, noApproval, noRetry } from '../../../../shared/contract';
import { InstanceField, useDefaultInstanceId } from '../instances/InstanceField';
import { RetryFields, useRetryDraft } from '../reliability/RetryFields';
import { BudgetFields, useBudgetDraft } from '../reliability/BudgetFields';
import { ApprovalFields, useApprovalDraft } from '../approvals/ApprovalFields';
import { WhenFields, localZone, useWhenDraft } from './WhenFields';
import { ErrorLine, Field, MemoryField, NotifyField, useAction, useEscape } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { quotesEvent, quotesPreviousRun, unknownPlaceholderProblem } from '../../../../shared/placeholders';
import { fittedCatchUp, isEventMode } from './when-draft';
import { useManagedSave } from '../config/ManagedSave';

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
  // Undefined until chosen: the kind decides the default (each event runs; a schedule runs the latest).
  const [catchUp, setCatchUp] = useState<Automation['catchUp'] | undefined>(automation?.catchUp);
  const when = useWhenDraft(automation);
  const retry = useRetryDraft(automation?.retry ?? noRetry);
  const budget = useBudgetDraft(automation?.budget ?? {});
  const approval = useApprovalDraft(automation?.approval ?? noApproval);
  const action = useAction();
  const managed = useManagedSave(automation?.id);
  useEscape(true, onDone);
  // Flagged as one types, with the rule the API refuses by: a typo is never sent as written.
  const placeholderProblem = unknownPlaceholderProblem(prompt, 'automation');
  const mode = when.draft.mode;
  const event = isEventMode(mode);
  const previousUnfilled = mode !== 'after' && quotesPreviousRun(prompt) ? '{{previous.…}} is sent as written here: only an automation that runs after another fills it.' : undefined;
  const eventUnfilled = !event && quotesEvent(prompt) ? '{{event…}} is filled only for an automation started by a folder, a repository, mail or a feed: choose one under When.' : undefined;
  const missedRuns = fittedCatchUp(catchUp, mode);
  const save = () => {
    // Each section marks its own problems; all are checked so that every one shows at once.
    const schedule = when.ready();
    const retryPolicy = retry.ready();
    const budgetLimits = budget.ready();
    const approvalPolicy = approval.ready();
    if (!schedule || !retryPolicy || !budgetLimits || !approvalPolicy || placeholderProblem) return action.refused();
    const body = { name, prompt, ...schedule, timezone, notify, memory, catchUp: missedRuns, retry: retryPolicy, budget: budgetLimits, approval: approvalPolicy, ...(instanceId ? { instanceId } : {}) };
    managed.submit(async () => {
      const saved = await action.run(() => saveAutomation(automation?.id, body));
      if (!saved) {
        toast('failure', automation ? `${automation.name} was not saved.` : 'The automation was not created.');
        return false;
      }
      toast('success', automation ? `${saved.name} saved.` : `${saved.name} created.`);
      return true;
    }, onDone);
  };
  return (
    <form noValidate ref={action.formRef} className="card" aria-label={automation ? `Edit ${automation.name}` : 'New automation'} onSubmit={(event) => { event.preventDefault(); save(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input autoFocus value={name} onChange={(event) => { setName(event.target.value); action.clearFor('name'); }} placeholder="Morning triage" />
      </Field>
      <Field label="Prompt" error={action.errorFor('prompt') ?? placeholderProblem} warning={previousUnfilled ?? eventUnfilled} hint="What the agent is asked each time it runs.">
        <textarea value={prompt} onChange={(event) => { setPrompt(event.target.value); action.clearFor('prompt'); }} placeholder="Look at yesterday's failed CI runs and summarise them." />
      </Field>
      <WhenFields when={when} timezone={timezone} onTimezone={setTimezone} others={automations.filter((each) => each.id !== automation?.id)} instance={instances.find((each) => each.id === instanceId)} errorFor={action.errorFor} clearFor={action.clearFor} creating={!automation} />
      <InstanceField value={instanceId} onChange={setInstanceId} error={action.errorFor('instanceId')} madeOn={automation?.instanceId} />
      <MemoryField value={memory} onChange={setMemory} error={action.errorFor('memory')} />
      {mode !== 'after' && (
        <Field label={event ? 'Events while Steward was off' : 'Missed runs'} error={action.errorFor('catchUp')} hint={event ? 'What happened while Steward was not running (or automations were paused), found when it starts.' : 'When Steward was not running (or paused) at a scheduled time.'}>
          <select value={missedRuns} onChange={(change) => setCatchUp(change.target.value as Automation['catchUp'])}>
            {event && <option value="all">Run each</option>}
            <option value="latest">{event ? 'Only the latest' : 'Run the latest missed one (if at most 24 h late)'}</option>
            <option value="skip">{event ? 'Skip them' : 'Skip them all'}</option>
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
      {managed.dialog}
    </form>
  );
}
