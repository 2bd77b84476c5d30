// Automations: the list with the next run and an enabled switch; create and edit with the cron
// helper and what happens to missed fires; run now; delete with confirmation.
import { useEffect, useState } from 'react';
import type { Automation, Memory, NotifyOverride } from '../../../../shared/contract';
import { CronHelper, describeCron } from './CronHelper';
import { InstanceField, useDefaultInstanceId } from '../instances/InstanceField';
import { Badge, ConfirmButton, Empty, ErrorLine, Field, MemoryField, NotifyField, Time, useAction, useEscape } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';

const timezones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function Editor({ automation, onDone }: { automation?: Automation; onDone: () => void }) {
  const { saveAutomation } = useApp();
  const defaultInstanceId = useDefaultInstanceId();
  const [name, setName] = useState(automation?.name ?? '');
  const [prompt, setPrompt] = useState(automation?.prompt ?? '');
  const [cronExpression, setCron] = useState(automation?.cronExpression ?? '0 9 * * 1-5');
  const [timezone, setTimezone] = useState(automation?.timezone ?? localZone);
  const [instanceId, setInstanceId] = useState(automation?.instanceId ?? defaultInstanceId);
  const [notify, setNotify] = useState<NotifyOverride>(automation?.notify ?? 'default');
  const [memory, setMemory] = useState<Memory>(automation?.memory ?? 'fresh');
  const [catchUp, setCatchUp] = useState<Automation['catchUp']>(automation?.catchUp ?? 'latest');
  const { toast } = useApp();
  const action = useAction();
  useEscape(true, onDone);
  const save = async () => {
    const saved = await action.run(() => saveAutomation(automation?.id, { name, prompt, cronExpression, timezone, notify, memory, catchUp, ...(instanceId ? { instanceId } : {}) }));
    if (!saved) return toast('failure', automation ? `${automation.name} was not saved.` : 'The automation was not created.');
    toast('success', automation ? `${saved.name} saved.` : `${saved.name} created.`);
    onDone();
  };
  return (
    <form className="card" aria-label={automation ? `Edit ${automation.name}` : 'New automation'} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input autoFocus value={name} onChange={(event) => { setName(event.target.value); action.clearFor('name'); }} placeholder="Morning triage" />
      </Field>
      <Field label="Prompt" error={action.errorFor('prompt')} hint="What the agent is asked each time it runs.">
        <textarea value={prompt} onChange={(event) => { setPrompt(event.target.value); action.clearFor('prompt'); }} placeholder="Look at yesterday's failed CI runs and summarise them." />
      </Field>
      <Field label="Schedule (cron)" error={action.errorFor('cronExpression')} hint={<CronHelper expression={cronExpression} timezone={timezone} />}>
        <input className="mono" value={cronExpression} onChange={(event) => { setCron(event.target.value); action.clearFor('cronExpression'); }} />
      </Field>
      <Field label="Timezone" error={action.errorFor('timezone')}>
        <select value={timezone} onChange={(event) => setTimezone(event.target.value)}>
          {[...new Set(['UTC', localZone, ...timezones])].map((zone) => <option key={zone}>{zone}</option>)}
        </select>
      </Field>
      <InstanceField value={instanceId} onChange={setInstanceId} error={action.errorFor('instanceId')} />
      <MemoryField value={memory} onChange={setMemory} error={action.errorFor('memory')} />
      <Field label="Missed runs" error={action.errorFor('catchUp')} hint="When Steward was not running (or paused) at a scheduled time.">
        <select value={catchUp} onChange={(event) => setCatchUp(event.target.value as Automation['catchUp'])}>
          <option value="latest">Run the latest missed one (if at most 24 h late)</option>
          <option value="skip">Skip them all</option>
        </select>
      </Field>
      <NotifyField value={notify} onChange={setNotify} error={action.errorFor('notify')} />
      <ErrorLine message={action.generalError(['name', 'prompt', 'cronExpression', 'timezone', 'instanceId', 'notify', 'memory', 'catchUp'])} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>{automation ? 'Save' : 'Create automation'}</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

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

export function Automations() {
  const { automations, instances, saveAutomation, deleteAutomation, runAutomation, navigate } = useApp();
  const [editing, setEditing] = useState<string | undefined>();
  const action = useAction();
  const instanceName = (id: string) => instances.find((each) => each.id === id)?.name ?? id;
  return (
    <section aria-labelledby="automations-title">
      <div className="bar">
        <h2 id="automations-title">Automations</h2>
        <span className="spacer" />
        <button className="primary" onClick={() => setEditing('new')}>New automation</button>
      </div>
      {editing === 'new' && <Editor onDone={() => setEditing(undefined)} />}
      <ErrorLine message={action.error?.message} />
      {automations.length === 0 && editing !== 'new' ? (
        <Empty title="No automations yet">
          An automation gives an agent a prompt on a schedule — say every weekday at 9:00. <button onClick={() => setEditing('new')}>Create your first</button>
        </Empty>
      ) : (
        automations.map((automation) =>
          editing === automation.id ? (
            <Editor key={automation.id} automation={automation} onDone={() => setEditing(undefined)} />
          ) : (
            <article className="card" key={automation.id} aria-label={automation.name}>
              <div className="row">
                <strong>{automation.name}</strong>
                {automation.lastRunStatus && <Badge status={automation.lastRunStatus} />}
                <span className="spacer" />
                <label className="switch">
                  <input type="checkbox" role="switch" checked={automation.enabled} aria-label={`${automation.name} enabled`} onChange={(event) => void action.run(() => saveAutomation(automation.id, { enabled: event.target.checked }))} />
                  {automation.enabled ? 'On' : 'Off'}
                </label>
              </div>
              <div className="hint">
                {automation.cronExpression === null ? (
                  <>after {automations.find((each) => each.id === automation.trigger?.after.automationId)?.name ?? 'a deleted automation'}</>
                ) : (
                  <>
                    <code>{automation.cronExpression}</code> {describeCron(automation.cronExpression)} · {automation.timezone}
                  </>
                )}{' '}
                · on {instanceName(automation.instanceId)}
              </div>
              <div className="hint">Next run: <span data-testid="next-run">{automation.enabled ? <NextRun automation={automation} /> : 'paused (off)'}</span> · last run <Time iso={automation.lastRunAt} /></div>
              <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
                <button onClick={() => void action.run(async () => navigate(`/runs/${(await runAutomation(automation.id)).id}`))}>Run now</button>
                <button onClick={() => setEditing(automation.id)}>Edit</button>
                <button onClick={() => navigate(`/threads/${automation.threadId}`)}>History</button>
                <ConfirmButton label="Delete" danger question={`Delete ${automation.name}, its history and runs?`} confirm="Delete" onConfirm={() => void action.run(() => deleteAutomation(automation.id))} />
              </div>
            </article>
          ),
        )
      )}
    </section>
  );
}
