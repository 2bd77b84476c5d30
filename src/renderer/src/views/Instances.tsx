// Instances: cards with avatar, name, status, image tag and fqdn; rename, avatar, agent; start and
// stop; a new instance with its agent.
import { useState } from 'react';
import type { AgentConfig, Instance } from '../../../shared/contract';
import { Avatar, Badge, ConfirmButton, ErrorLine, Field, useAction } from '../components/ui';
import { useApp } from '../lib/app-context';

const presets = ['claude-code', 'codex', 'gemini', 'goose', 'opencode', 'custom'] as const;

export function describeAgent(agent: AgentConfig): string {
  if (agent.provider === 'openai') return `${agent.model} at ${agent.baseUrl}`;
  return agent.preset === 'custom' ? `custom: ${[agent.command, ...(agent.args ?? [])].join(' ')}` : agent.preset;
}

/** The agent settings form: a CLI preset (or any command), or the built-in OpenAI-compatible agent. */
export function AgentFields({ agent, onChange, errorFor }: { agent: AgentConfig; onChange: (agent: AgentConfig) => void; errorFor: (field: string) => string | undefined }) {
  const kind = agent.provider === 'openai' ? 'openai' : agent.preset;
  return (
    <>
      <Field label="Agent" error={errorFor('agent.preset') ?? errorFor('agent.provider')}>
        <select value={kind} onChange={(event) => onChange(event.target.value === 'openai' ? { provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b' } : { provider: 'command', preset: event.target.value as (typeof presets)[number], ...(event.target.value === 'custom' ? { command: 'cat' } : {}) })}>
          {presets.map((preset) => <option key={preset} value={preset}>{preset === 'custom' ? 'Custom command' : preset}</option>)}
          <option value="openai">Built-in (OpenAI-compatible: Ollama, LM Studio, OpenRouter…)</option>
        </select>
      </Field>
      {agent.provider === 'command' && agent.preset === 'custom' && (
        <Field label="Command" error={errorFor('agent.command')} hint="Any executable; the prompt goes to its stdin, each line it prints is a reply.">
          <input className="mono" value={agent.command ?? ''} onChange={(event) => onChange({ ...agent, command: event.target.value })} />
        </Field>
      )}
      {agent.provider === 'openai' && (
        <>
          <Field label="Base URL" error={errorFor('agent.baseUrl')}>
            <input className="mono" value={agent.baseUrl} onChange={(event) => onChange({ ...agent, baseUrl: event.target.value })} />
          </Field>
          <Field label="Model" error={errorFor('agent.model')}>
            <input className="mono" value={agent.model} onChange={(event) => onChange({ ...agent, model: event.target.value })} />
          </Field>
        </>
      )}
    </>
  );
}

function NewInstance({ onDone }: { onDone: () => void }) {
  const { createInstance, settings } = useApp();
  const [name, setName] = useState('');
  const [agent, setAgent] = useState<AgentConfig>(settings?.defaultAgent ?? { provider: 'command', preset: 'claude-code' });
  const action = useAction();
  return (
    <form className="card" aria-label="New instance" onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await createInstance({ name, agent }); onDone(); }); }}>
      <Field label="Name" error={action.errorFor('name')}>
        <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Home server" />
      </Field>
      <AgentFields agent={agent} onChange={setAgent} errorFor={action.errorFor} />
      <ErrorLine message={action.generalError(['name', 'agent'])} />
      <div className="bar">
        <button className="primary" type="submit" disabled={action.busy}>Create instance</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
    </form>
  );
}

function Card({ instance }: { instance: Instance }) {
  const { updateInstance, setInstanceRunning, deleteInstance } = useApp();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(instance.name);
  const [avatarUrl, setAvatarUrl] = useState('');
  const action = useAction();
  return (
    <article className="card" aria-label={instance.name}>
      <div className="row">
        <Avatar url={instance.avatarUrl} name={instance.name} />
        <div style={{ flex: 1, minWidth: 0 }}>
          {renaming ? (
            <form className="row" onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await updateInstance(instance.id, { name }); setRenaming(false); }); }}>
              <input aria-label="New name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
              <button className="primary" type="submit">Save</button>
            </form>
          ) : (
            <strong>{instance.name}</strong>
          )}
          <div className="hint mono">{instance.fqdn}</div>
        </div>
        <Badge status={instance.status} />
      </div>
      <div className="hint">Agent: {describeAgent(instance.agent)} {instance.imageTag && <>· <code>{instance.imageTag}</code></>}</div>
      {instance.statusReason && <div className="error">{instance.statusReason}</div>}
      <ErrorLine message={action.error?.message} />
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        {!renaming && <button onClick={() => { setName(instance.name); setRenaming(true); }}>Rename</button>}
        {instance.status === 'stopped' ? <button onClick={() => void action.run(() => setInstanceRunning(instance.id, true))}>Start</button> : <button onClick={() => void action.run(() => setInstanceRunning(instance.id, false))}>Stop</button>}
        {instance.status === 'error' && <button onClick={() => void action.run(() => setInstanceRunning(instance.id, true))}>Check again</button>}
        {!instance.isDefault && <ConfirmButton label="Delete" danger question={`Delete ${instance.name}?`} confirm="Delete" onConfirm={() => void action.run(() => deleteInstance(instance.id))} />}
      </div>
      <form className="row" style={{ marginTop: 8 }} onSubmit={(event) => { event.preventDefault(); void action.run(async () => { await updateInstance(instance.id, { avatarUrl }); setAvatarUrl(''); }); }}>
        <input aria-label={`Avatar URL for ${instance.name}`} placeholder="https://… avatar (empty: initials)" value={avatarUrl} onChange={(event) => setAvatarUrl(event.target.value)} />
        <button type="submit">Set avatar</button>
      </form>
    </article>
  );
}

export function Instances() {
  const { instances } = useApp();
  const [adding, setAdding] = useState(false);
  return (
    <section aria-labelledby="instances-title">
      <div className="bar">
        <h2 id="instances-title">Instances</h2>
        <span className="spacer" />
        <button className="primary" onClick={() => setAdding(true)}>New instance</button>
      </div>
      {adding && <NewInstance onDone={() => setAdding(false)} />}
      <div className="cards">{instances.map((instance) => <Card key={instance.id} instance={instance} />)}</div>
    </section>
  );
}
