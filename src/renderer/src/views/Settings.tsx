// Settings: the agent new instances get, notifications, launch at login, runner limits, activity
// retention, API keys (a new key is shown once), and where the data lives.
import { useEffect, useState } from 'react';
import type { AgentConfig, NotificationPolicy } from '../../../shared/contract';
import { ConfirmButton, ErrorLine, Field, formatTime, useAction } from '../components/ui';
import { useApp } from '../lib/app-context';
import { inDesktopApp } from '../lib/api';
import { AgentFields } from './Instances';

export function Settings() {
  const { settings, apiKeys, updateSettings, createApiKey, revokeApiKey, paused, setPaused, system } = useApp();
  const [agent, setAgent] = useState<AgentConfig | undefined>(settings?.defaultAgent);
  const [keyName, setKeyName] = useState('');
  const [newKey, setNewKey] = useState<string | undefined>();
  const action = useAction();
  useEffect(() => setAgent(settings?.defaultAgent), [settings?.defaultAgent]);
  if (!settings) return <div className="hint">Loading…</div>;
  const desktop = inDesktopApp();
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <ErrorLine message={action.generalError(['defaultAgent', 'runner', 'activity'])} />
      <div className="card">
        <h3>Agent for new instances</h3>
        {agent && <AgentFields agent={agent} onChange={setAgent} errorFor={(field) => action.errorFor(field.replace(/^agent/, 'defaultAgent'))} />}
        <button className="primary" onClick={() => void action.run(() => updateSettings({ defaultAgent: agent }))}>Save agent</button>
      </div>
      <div className="card">
        <h3>Notifications and automations</h3>
        <Field label="Notify me when a run finishes" hint={desktop ? undefined : 'Notifications are shown by the desktop app.'}>
          <select value={settings.notifications.on} onChange={(event) => void action.run(() => updateSettings({ notifications: { on: event.target.value as NotificationPolicy } }))}>
            <option value="all">Always</option>
            <option value="failures">Only when it fails</option>
            <option value="none">Never</option>
          </select>
        </Field>
        <label className="switch"><input type="checkbox" checked={settings.desktop.launchAtLogin} onChange={(event) => void action.run(() => updateSettings({ desktop: { launchAtLogin: event.target.checked } }))} /> Launch Steward at login {desktop ? '' : '(desktop app)'}</label>
        <div style={{ marginTop: 8 }}>
          <label className="switch"><input type="checkbox" checked={paused} onChange={(event) => void action.run(() => setPaused(event.target.checked))} /> Pause all automations</label>
        </div>
      </div>
      <div className="card">
        <h3>Runner and retention</h3>
        <Field label="Runs at the same time" error={action.errorFor('runner.maxRunning')}>
          <input type="number" min={1} max={32} defaultValue={settings.runner.maxRunning} onBlur={(event) => void action.run(() => updateSettings({ runner: { maxRunning: Number(event.target.value) } }))} />
        </Field>
        <Field label="Activity lines kept per instance (empty: all)" error={action.errorFor('activity.retentionLines')}>
          <input type="number" min={1} defaultValue={settings.activity.retentionLines ?? ''} onBlur={(event) => void action.run(() => updateSettings({ activity: { retentionLines: event.target.value ? Number(event.target.value) : null } }))} />
        </Field>
        <Field label="Days of activity kept (empty: all)" error={action.errorFor('activity.retentionDays')}>
          <input type="number" min={1} defaultValue={settings.activity.retentionDays ?? ''} onBlur={(event) => void action.run(() => updateSettings({ activity: { retentionDays: event.target.value ? Number(event.target.value) : null } }))} />
        </Field>
      </div>
      <div className="card">
        <h3>API keys</h3>
        <form className="row" onSubmit={(event) => { event.preventDefault(); void action.run(async () => { setNewKey(await createApiKey(keyName)); setKeyName(''); }); }}>
          <input aria-label="Key name" placeholder="laptop, CI…" value={keyName} onChange={(event) => setKeyName(event.target.value)} />
          <button type="submit">Create key</button>
        </form>
        {newKey && <div className="card" role="status">Copy this key now; it is not shown again: <code data-testid="new-key">{newKey}</code></div>}
        <table style={{ marginTop: 8 }}>
          <tbody>
            {apiKeys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td className="mono">{key.preview}…</td>
                <td className="hint">last used {formatTime(key.lastUsedAt)}</td>
                <td><ConfirmButton label="Revoke" danger question="Revoke it? Whatever uses it stops at once." confirm="Revoke" onConfirm={() => void action.run(() => revokeApiKey(key.id))} /></td>
              </tr>
            ))}
          </tbody>
        </table>
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
