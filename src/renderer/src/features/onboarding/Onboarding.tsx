// The first start, on the Activity view until a run has succeeded: which agents this machine
// offers (CLIs on PATH with their versions, an OpenAI-compatible server with its models), one
// chosen for the default instance (or any command with arguments, or a server URL and model), and a
// first prompt answered inline. The agent stays sandboxed; where this machine cannot sandbox, the
// card says why and offers running it unsandboxed as an explicit choice.
import { type ReactNode, useEffect, useState } from 'react';
import { type AgentConfig, type AgentDetection, defaultOpenAiBaseUrl } from '../../../../shared/contract';
import { AgentFields, describeAgent, presetNames } from '../instances/AgentFields';
import { Composer } from '../chat/Composer';
import { CannotSandbox, SandboxIt } from '../sandbox/InstanceSandbox';
import { Turns } from '../runs/Turns';
import { Badge, ErrorLine, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { cannotSandbox } from '../sandbox/sandbox';

type Choice = `preset:${keyof typeof presetNames}` | 'openai' | 'custom';

/** What to offer first: a CLI that was found and can run, else a server that answers, else a command. */
export function firstChoice(detection: AgentDetection): Choice {
  const cli = detection.agents.find((agent) => agent.found && agent.problem === null);
  if (cli) return `preset:${cli.preset}`;
  return detection.openai.reachable && detection.openai.models.length > 0 ? 'openai' : 'custom';
}

function Detected({ detection, onAgain, busy }: { detection: AgentDetection; onAgain: () => void; busy: boolean }) {
  const { openai } = detection;
  return (
    <>
      <ul className="detected" aria-label="Agents on this machine">
        {detection.agents.map((agent) => (
          <li key={agent.preset} data-found={agent.found}>
            <strong>{presetNames[agent.preset]}</strong>{' '}
            {agent.found ? <>found{agent.version && <> — {agent.version}</>} <span className="hint mono">{agent.path}</span></> : <span className="hint">{agent.command} is not on PATH</span>}
            {agent.problem && <div className="warning">{agent.problem}</div>}
          </li>
        ))}
        <li data-found={openai.reachable}>
          <strong>OpenAI-compatible server</strong> <span className="mono">{openai.baseUrl}</span>{' '}
          {openai.reachable ? <>answers — {openai.models.length > 0 ? openai.models.join(', ') : 'no models'}</> : <span className="hint">does not answer</span>}
        </li>
      </ul>
      <button type="button" onClick={onAgain} disabled={busy}>Look again</button>
    </>
  );
}

function FirstRun({ runId, onDone }: { runId: string; onDone: () => void }) {
  const { runs, runMessages } = useApp();
  const run = runs.find((each) => each.id === runId);
  if (!run) return null;
  return (
    <div className="first-run">
      <div className="bar" style={{ marginBottom: 6 }}>
        <Badge status={run.status} />
        <a href={`#/runs/${run.id}`}>Run details</a>
      </div>
      <Turns messages={runMessages[run.id] ?? []} label="First answer" userName="You" />
      {run.error && <div className="error" role="alert">{run.error}</div>}
      {run.status === 'succeeded' && (
        <div className="bar" role="status">
          <strong>It works.</strong> <a href={`#/chat/${run.instanceId}/${run.threadId}`}>Continue this chat</a>
          <button type="button" onClick={onDone}>Done</button>
        </div>
      )}
    </div>
  );
}

export function Onboarding({ onStarted }: { onStarted: () => void }) {
  const { detection, detectAgents, instances, runs, updateInstance, updateSettings, sendPrompt, loadRunMessages, dismissOnboarding } = useApp();
  const steward = instances.find((each) => each.isDefault);
  // After a reload the form shows the agent in use when it is a command or a server (not a blank
  // form); else what this machine offers, chosen at once when the agents are known already (the
  // gate waits for them): no second render that grows the card.
  const current = steward?.agent;
  const inUse: Choice | undefined = current?.provider === 'openai' ? 'openai' : current?.provider === 'command' && current.preset === 'custom' && current.command ? 'custom' : undefined;
  const [choice, setChoice] = useState<Choice | undefined>(() => inUse ?? (detection ? firstChoice(detection) : undefined));
  const [custom, setCustom] = useState<AgentConfig>(() => (inUse === 'custom' && current ? current : { provider: 'command', preset: 'custom', command: '' }));
  const [server, setServer] = useState<AgentConfig>(() => (inUse === 'openai' && current ? current : { provider: 'openai', baseUrl: defaultOpenAiBaseUrl, model: detection?.openai.models[0] ?? '' }));
  // Until the user chose an agent here, the default one's state is a fact, not an error of theirs.
  const [applied, setApplied] = useState(false);
  const [forNewInstances, setForNewInstances] = useState(true);
  const [runId, setRunId] = useState<string | undefined>();
  const detecting = useAction();
  const applying = useAction();
  useEffect(() => {
    // Once, when the card first shows.
    if (!detection) void detecting.run(() => detectAgents());
  }, []);
  useEffect(() => {
    if (!detection || choice) return;
    setChoice(firstChoice(detection));
    const model = detection.openai.models[0];
    if (model) setServer((current) => (current.provider === 'openai' && !current.model ? { ...current, model } : current));
  }, [detection, choice]);
  if (!steward) return null;
  // Once the first prompt was answered, "Done" ends the card: "Skip for now" would say the same.
  const firstRunSucceeded = runs.some((run) => run.id === runId && run.status === 'succeeded');
  const chosen: AgentConfig | undefined =
    choice === 'custom' ? custom : choice === 'openai' ? server : choice ? { provider: 'command', preset: choice.slice('preset:'.length) as keyof typeof presetNames } : undefined;
  const apply = () =>
    applying.run(async () => {
      if (!chosen) return;
      onStarted();
      setApplied(true);
      await updateInstance(steward.id, { agent: chosen });
      if (forNewInstances) await updateSettings({ defaultAgent: chosen });
    });
  const serverUrl = server.provider === 'openai' ? server.baseUrl : undefined;
  const serverModels = detection && detection.openai.baseUrl === serverUrl ? detection.openai.models : undefined;
  const send = async (prompt: string) => {
    onStarted();
    const run = await sendPrompt(steward.id, prompt);
    setRunId(run.id);
    await loadRunMessages(run.id);
  };
  const options: [Choice, string][] = [
    ...(detection?.agents.filter((agent) => agent.found).map((agent): [Choice, string] => [`preset:${agent.preset}`, `${presetNames[agent.preset]}${agent.version ? ` ${agent.version}` : ''}`]) ?? []),
    ['openai', 'An OpenAI-compatible server (Ollama, LM Studio, OpenRouter…)'],
    ['custom', 'Any command'],
  ];
  return (
    <section className="card onboarding" aria-labelledby="onboarding-title">
      <h2 id="onboarding-title">Welcome to Steward</h2>
      <p>Steward runs an agent for you on schedules, webhooks and prompts. First, choose the agent of <strong>{steward.name}</strong>, the instance everything runs on unless told otherwise.</p>
      <h3>1. Agents on this machine</h3>
      {detection ? <Detected detection={detection} onAgain={() => void detecting.run(() => detectAgents(serverUrl))} busy={detecting.busy} /> : <div className="hint">Looking…</div>}
      <ErrorLine message={detecting.error?.message} />
      <h3>2. The agent of {steward.name}</h3>
      {steward.sandbox.mode === 'sandbox' ? (
        <p>It runs sandboxed: the agent sees only its workspace and <a href={`#/instances/${steward.id}/agent`}>the hosts you allow</a>, nothing else of this machine.</p>
      ) : (
        <SandboxIt instance={steward} />
      )}
      <form noValidate ref={applying.formRef} aria-label={`Agent of ${steward.name}`} onSubmit={(event) => { event.preventDefault(); void apply(); }}>
        <fieldset className="choices">
          <legend>Agent</legend>
          {options.map(([value, label]) => (
            <label key={value} className="switch"><input type="radio" name="onboarding-agent" value={value} checked={choice === value} onChange={() => setChoice(value)} /> {label}</label>
          ))}
        </fieldset>
        {choice === 'custom' && <AgentFields agent={custom} onChange={setCustom} errorFor={applying.errorFor} hideKind />}
        {choice === 'openai' && (
          <>
            <AgentFields agent={server} onChange={setServer} errorFor={applying.errorFor} hideKind models={serverModels} />
            <button type="button" onClick={() => void detecting.run(() => detectAgents(serverUrl))}>Check this server</button>
          </>
        )}
        <label className="switch"><input type="checkbox" checked={forNewInstances} onChange={(event) => setForNewInstances(event.target.checked)} /> Also the agent of new instances</label>
        <ErrorLine message={applying.generalError(['agent'])} />
        <div className="bar" style={{ marginTop: 8 }}>
          <button className="primary" type="submit" disabled={!chosen || applying.busy}>Use this agent</button>
          <span className="hint">Now: <span className="mono">{describeAgent(steward.agent)}</span></span>
          {applied && <Badge status={steward.status} />}
        </div>
        <div role="status" className="agent-status" aria-label={`${steward.name} status`}>
          {steward.status === 'running' && <span className="ok">Ready: <code>{steward.imageTag}</code></span>}
          {steward.status === 'provisioning' && <span className="hint">Checking the agent…</span>}
          {steward.status === 'error' && (
            <span className={applied ? 'error' : 'hint'}>
              Not ready: {cannotSandbox(steward) ? 'this machine cannot sandbox the agent.' : steward.statusReason}
            </span>
          )}
        </div>
        <CannotSandbox instance={steward} />
      </form>
      <h3>3. A first prompt</h3>
      <Composer label="First prompt" placeholder="Say hello in one sentence." onSend={send} />
      {runId && <FirstRun runId={runId} onDone={dismissOnboarding} />}
      {!firstRunSucceeded && (
        <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
          <span className="spacer" />
          <button type="button" onClick={dismissOnboarding}>Skip for now</button>
        </div>
      )}
    </section>
  );
}

/**
 * The card while no run has succeeded yet, and while the user is in the middle of it, above
 * `children` (the Activity view). Until it is known whether the card shows, and until what the card
 * shows first is loaded (the default instance, the agents found), nothing is rendered here: content
 * that appears into empty space moves nothing, while a card that arrived late would push the whole
 * view down (a layout shift).
 */
export function OnboardingGate({ children }: { children: ReactNode }) {
  const { everSucceeded, onboardingDismissed, loadOnboarding, instances, detection, detectAgents } = useApp();
  const [started, setStarted] = useState(false);
  const [unknown, setUnknown] = useState(false);
  const [detectFailed, setDetectFailed] = useState(false);
  useEffect(() => {
    if (everSucceeded === undefined) void loadOnboarding().catch(() => setUnknown(true));
  }, [everSucceeded, loadOnboarding]);
  useEffect(() => {
    if (everSucceeded === false && !detection) void detectAgents().catch(() => setDetectFailed(true));
  }, [everSucceeded]);
  const show = !onboardingDismissed && !unknown && everSucceeded !== undefined && (!everSucceeded || started);
  const known = onboardingDismissed || unknown || everSucceeded !== undefined;
  const ready = known && instances.length > 0 && (!show || detection !== undefined || detectFailed);
  if (!ready) return null;
  return (
    <>
      {show && <Onboarding onStarted={() => setStarted(true)} />}
      {children}
    </>
  );
}
