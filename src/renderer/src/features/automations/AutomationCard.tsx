// One automation's card: name, last run and health, the enabled switch, when it runs (its schedule,
// the automation it follows, or its trigger in words), its event source's health, its next run (or,
// once, that it is done), its retry policy and budget, its spend, the file it came from, and run now,
// edit, History and delete. Switching one that came from a file asks first (ManagedSave).
import { useEffect, useState } from 'react';
import type { Automation } from '../../../../shared/contract';
import { describeCron } from './CronHelper';
import { HealthBadge } from './HealthBadge';
import { SourceBadge, SourceLine, useSourcePoll } from './SourceHealth';
import { triggerWords } from '../../../../shared/trigger-words';
import { SpendSummary } from './SpendSummary';
import { AutomationHistory } from './AutomationHistory';
import { Badge, ConfirmButton, ErrorLine, Time, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { instanceLabel } from '../instances/instance-label';
import { budgetWords, retryWords } from '../reliability/policy-words';
import { FromFile } from '../config/FromFile';
import { useManagedSave } from '../config/ManagedSave';

/** The first of its next runs still ahead, re-derived every few seconds; once all are past, the automation is reloaded. */
function NextRun({ automation }: { automation: Automation }) {
  const { refreshAutomation } = useApp();
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(timer);
  }, []);
  const next = automation.nextRuns.find((at) => Date.parse(at) > now);
  useEffect(() => {
    if (!next && automation.nextRuns.length > 0) void refreshAutomation(automation.id).catch(() => undefined);
  }, [next, automation.id, automation.nextRuns.length, refreshAutomation]);
  return <Time iso={next ?? null} />;
}

export function AutomationCard({ automation, onEdit }: { automation: Automation; onEdit: () => void }) {
  const { automations, instances, saveAutomation, deleteAutomation, runAutomation, navigate } = useApp();
  const [history, setHistory] = useState(false);
  const action = useAction();
  const managed = useManagedSave(automation.id);
  const instance = instances.find((each) => each.id === automation.instanceId);
  const instanceName = instance ? instanceLabel(instance) : automation.instanceId;
  const { trigger } = automation;
  const followed = trigger?.after && automations.find((each) => each.id === trigger.after?.automationId);
  useSourcePoll(automation);
  const timed = automation.cronExpression !== null || trigger?.at !== undefined || trigger?.every !== undefined;
  // Once, and it ran: the automation turned itself off and is kept with its run.
  const done = trigger?.at !== undefined && !automation.enabled && automation.lastRunAt !== null;
  return (
    <article className="card" aria-label={automation.name} id={`automation-${automation.id}`} tabIndex={-1}>
      <div className="row wrap">
        <strong>{automation.name}</strong>
        {automation.lastRunStatus && <span className="last-run" title="Its last run">last run <Badge status={automation.lastRunStatus} /></span>}
        <HealthBadge health={automation.health} />
        {automation.source && <SourceBadge source={automation.source} />}
        <span className="spacer" />
        <label className="switch">
          <input type="checkbox" role="switch" checked={automation.enabled} aria-label={`${automation.name} enabled`} onChange={(event) => { const enabled = event.target.checked; managed.submit(async () => (await action.run(() => saveAutomation(automation.id, { enabled }))) !== undefined, () => undefined); }} />
          {automation.enabled ? 'On' : 'Off'}
        </label>
      </div>
      <div className="hint">
        {automation.cronExpression !== null ? (
          <>
            <code>{automation.cronExpression}</code> {describeCron(automation.cronExpression)} · {automation.timezone}
          </>
        ) : trigger?.after ? (
          <>after {followed ? followed.name : 'a deleted automation'} ({trigger.after.on.join(', ').replace(/_/g, ' ')})</>
        ) : (
          <span data-testid="trigger-words">{trigger ? triggerWords(trigger, automation.timezone) : ''}</span>
        )}{' '}
        · on {instanceName}
      </div>
      <FromFile id={automation.id} />
      {automation.source && <SourceLine source={automation.source} />}
      {done ? (
        <div className="hint" data-testid="once-done"><span className="badge done">✓ done</span> ran <Time iso={automation.lastRunAt} />; now off, kept with its run.</div>
      ) : timed && (
        <div className="hint">Next run: <span data-testid="next-run">{automation.enabled ? <NextRun automation={automation} /> : 'paused (off)'}</span> · last run <Time iso={automation.lastRunAt} /></div>
      )}
      <div className="hint" data-testid="policies">Retry: {retryWords(automation.retry)} · Budget: {budgetWords(automation.budget)}</div>
      <SpendSummary automation={automation} />
      <ErrorLine message={action.error?.message} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button onClick={() => void action.run(async () => navigate(`/runs/${(await runAutomation(automation.id)).id}`))}>Run now</button>
        <button onClick={onEdit}>Edit</button>
        <button aria-expanded={history} onClick={() => setHistory(!history)}>History</button>
        <ConfirmButton label="Delete" danger question={`Delete ${automation.name}, its history and runs?`} confirm="Delete" onConfirm={() => void action.run(() => deleteAutomation(automation.id))} />
      </div>
      {history && <AutomationHistory automation={automation} />}
      {managed.dialog}
    </article>
  );
}
