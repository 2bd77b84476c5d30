// Settings: the agent new instances get, the built-in agent's MCP servers, notifications (on this
// desktop, and run notification channels), launch at login (desktop app only), runner limits,
// activity retention, the tunnel, secrets, remote Stewards, configuration as files (ConfigSection),
// API keys (what each scope allows; a new key is shown once, with a copy button), and where the
// data lives. Saves are confirmed with a toast.
import { useEffect, useRef, useState } from 'react';
import { type AgentConfig, type McpServerConfig, type NotificationPolicy, type SettingsPatch } from '../../../../shared/contract';
import { AgentFields } from '../instances/AgentFields';
import { McpServersEditor } from '../instances/McpServersEditor';
import { NotificationChannels } from './NotificationChannels';
import { RemoteStewards } from './RemoteStewards';
import { SecretsSettings } from './SecretsSettings';
import { TunnelSettings } from './TunnelSettings';
import { KeyScopes } from './KeyScopes';
import { ApiKeyForm } from './ApiKeyForm';
import { ConfirmButton, CopyButton, ErrorLine, Field, Time, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { inDesktopApp } from '../../lib/api';
import { ScrollBox } from '../../ui/ScrollBox';
import { useRefusalFocus } from '../../ui/form-errors';
import { ConfigSection } from '../config/ConfigSection';

const tunnelPollMs = 2_000;

/** A whole number in a range, or a problem in words; empty is `null` where `allowEmpty`. */
function wholeNumber(text: string, min: number, max: number, allowEmpty: boolean): { value?: number | null; problem?: string } {
  if (text.trim() === '') return allowEmpty ? { value: null } : { problem: `Enter a whole number from ${min} to ${max}.` };
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) return { problem: max === Infinity ? `Enter a whole number of at least ${min}, or leave it empty.` : `Enter a whole number from ${min} to ${max}.` };
  return { value };
}

export function Settings() {
  const { settings, apiKeys, updateSettings, revokeApiKey, paused, setPaused, system, tunnel, loadTunnel, loadSecrets, loadChannels, loadRemotes, loadConfig, toast } = useApp();
  // The page waits for its lists (secrets, channels, the tunnel, remotes) and shows itself whole: a
  // list that arrived late would grow its card and push every card below it (a layout shift).
  const [listsLoaded, setListsLoaded] = useState(false);
  const [agent, setAgent] = useState<AgentConfig | undefined>(settings?.defaultAgent);
  const [mcpServers, setMcpServers] = useState<McpServerConfig[]>(settings?.mcpServers ?? []);
  const [newKey, setNewKey] = useState<string | undefined>();
  const [problems, setProblems] = useState<Record<string, string | undefined>>({});
  const action = useAction();
  const mcpPending = useRef<(() => McpServerConfig[] | undefined) | null>(null);
  const mcpRefusal = useRefusalFocus<HTMLDivElement>();
  useEffect(() => setAgent(settings?.defaultAgent), [settings?.defaultAgent]);
  useEffect(() => setMcpServers(settings?.mcpServers ?? []), [settings?.mcpServers]);
  useEffect(() => {
    void Promise.allSettled([loadTunnel(), loadSecrets(), loadChannels(), loadRemotes(), loadConfig()]).then(() => setListsLoaded(true));
  }, [loadTunnel, loadSecrets, loadChannels, loadRemotes, loadConfig]);
  const connecting = tunnel?.state === 'connecting';
  useEffect(() => {
    // The tunnel has no live event of its own: while it connects, ask now and then.
    if (!connecting) return undefined;
    const timer = setInterval(() => void loadTunnel().catch(() => undefined), tunnelPollMs);
    return () => clearInterval(timer);
  }, [connecting, loadTunnel]);
  if (!settings || !listsLoaded) return <div className="hint">Loading…</div>;
  const desktop = inDesktopApp();
  const save = async (patch: SettingsPatch, what: string) => {
    const done = await action.run(async () => updateSettings(patch).then(() => true));
    toast(done ? 'success' : 'failure', done ? `${what} saved.` : `${what} not saved.`);
  };
  /** A number field saved on blur, checked first so its problem reads in words next to it. */
  const numberField = (field: string, label: string, initial: number | null, min: number, max: number, patch: (value: number | null) => SettingsPatch) => (
    <Field label={label} error={problems[field] ?? action.errorFor(field)}>
      <input
        type="number"
        min={min}
        max={max === Infinity ? undefined : max}
        defaultValue={initial ?? ''}
        onChange={(event) => { if (problems[field] && !wholeNumber(event.target.value, min, max, max === Infinity).problem) setProblems({ ...problems, [field]: undefined }); action.clearFor(field); }}
        onBlur={(event) => {
          const { value, problem } = wholeNumber(event.target.value, min, max, max === Infinity);
          setProblems({ ...problems, [field]: problem });
          if (!problem && value !== initial) void save(patch(value ?? null), label);
        }}
      />
    </Field>
  );
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <ErrorLine message={action.generalError(['defaultAgent', 'mcpServers', 'runner', 'activity'])} />
      <div className="card">
        <h3>Agent for new instances</h3>
        <div className="hint" style={{ marginBottom: 8 }}>Instances that exist keep their own agent, the default one included: change it with “Edit agent” on its card in <a href="#/instances">Instances</a>.</div>
        {agent && <AgentFields agent={agent} onChange={setAgent} errorFor={(field) => action.errorFor(field.replace(/^agent/, 'defaultAgent'))} />}
        <button className="primary" onClick={() => void save({ defaultAgent: agent }, 'Agent for new instances')}>Save agent</button>
      </div>
      <div className="card" ref={mcpRefusal.ref}>
        <h3>MCP servers</h3>
        <McpServersEditor
          pending={mcpPending}
          label="Servers of the built-in agent"
          hint="Every built-in (OpenAI-compatible) agent run starts them and may call their tools; an instance can add its own. One that cannot start is a line in the run, not a failure."
          servers={mcpServers}
          onChange={setMcpServers}
          errorFor={action.errorFor}
          field="mcpServers"
        />
        <button className="primary" onClick={() => {
          const servers = mcpPending.current ? mcpPending.current() : mcpServers;
          if (servers) void save({ mcpServers: servers }, 'MCP servers');
          else mcpRefusal.refused();
        }}>Save MCP servers</button>
      </div>
      <div className="card">
        <h3>Notifications and automations</h3>
        <Field label="Notify me when a run finishes" hint={`A run whose agent reports nothing to report stays quiet.${desktop ? '' : ' Notifications are shown by the desktop app.'}`}>
          <select value={settings.notifications.on} onChange={(event) => void save({ notifications: { on: event.target.value as NotificationPolicy } }, 'Notifications')}>
            <option value="all">Always</option>
            <option value="failures">Only when it fails</option>
            <option value="attention">When it fails or needs attention</option>
            <option value="none">Never</option>
          </select>
        </Field>
        {numberField('notifications.unhealthyAfter', 'Call an automation failing after this many failed runs in a row', settings.notifications.unhealthyAfter, 1, 100, (value) => ({ notifications: { unhealthyAfter: value ?? 3 } }))}
        {desktop && <label className="switch"><input type="checkbox" checked={settings.desktop.launchAtLogin} onChange={(event) => void save({ desktop: { launchAtLogin: event.target.checked } }, 'Launch at login')} /> Launch Steward at login</label>}
        <div style={{ marginTop: 8 }}>
          <label className="switch"><input type="checkbox" checked={paused} onChange={(event) => void action.run(() => setPaused(event.target.checked))} /> Pause all automations</label>
        </div>
      </div>
      <div className="card">
        <h3>Runner and retention</h3>
        {numberField('runner.maxRunning', 'Runs at the same time', settings.runner.maxRunning, 1, 32, (value) => ({ runner: { maxRunning: value ?? 1 } }))}
        {numberField('runner.maxRunDepth', 'How deep agents may start runs (a run started by a run started by a run…; 0: never)', settings.runner.maxRunDepth, 0, 10, (value) => ({ runner: { maxRunDepth: value ?? 0 } }))}
        {numberField('activity.retentionLines', 'Activity lines kept per instance (empty: all)', settings.activity.retentionLines, 1, Infinity, (value) => ({ activity: { retentionLines: value } }))}
        {numberField('activity.retentionDays', 'Days of activity kept (empty: all)', settings.activity.retentionDays, 1, Infinity, (value) => ({ activity: { retentionDays: value } }))}
      </div>
      <NotificationChannels />
      <TunnelSettings key={tunnel ? 'loaded' : 'loading'} />
      <SecretsSettings />
      <RemoteStewards />
      <ConfigSection />
      <div className="card">
        <h3>API keys</h3>
        <ApiKeyForm onCreated={setNewKey} />
        <KeyScopes />
        {newKey && (
          <div className="card nested row wrap" role="status">
            <span>Copy this key now; it is not shown again:</span> <code data-testid="new-key">{newKey}</code>
            <CopyButton text={newKey} label="Copy key" />
            <button type="button" onClick={() => setNewKey(undefined)}>Done</button>
          </div>
        )}
        <ScrollBox label="API keys, the table">
        <table style={{ marginTop: 8 }} aria-label="API keys">
          <tbody>
            {apiKeys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td className="mono">{key.preview}…</td>
                <td>{key.scope}</td>
                <td className="hint">last used <Time iso={key.lastUsedAt} /></td>
                <td><ConfirmButton label="Revoke" danger question="Revoke it? Whatever uses it stops at once." confirm="Revoke" onConfirm={() => void action.run(() => revokeApiKey(key.id))} /></td>
              </tr>
            ))}
          </tbody>
        </table>
        </ScrollBox>
      </div>
      {system && (
        <div className="card">
          <h3>This Steward</h3>
          <div>Version {system.version} · API <code>{system.apiUrl}</code></div>
          <div>Data folder <code>{system.dataDir}</code></div>
        </div>
      )}
    </section>
  );
}
