// The tunnel in Settings: which provider gives Steward's trigger URLs a public address (ssh to a
// host of one's own, cloudflared, ngrok, localtunnel), its state with the reason when it fails,
// the public URL while up, and start/stop.
import { useState } from 'react';
import type { TunnelConfig, TunnelConfigView } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { Badge, CopyButton, ErrorLine, Field, Time, useAction } from '../../ui/widgets';

type Provider = TunnelConfig['provider'];
type Draft = Record<string, string>;

const providerNames: Record<Provider, string> = {
  ssh: 'SSH to a host you own (reverse port forward)',
  cloudflare: 'Cloudflare quick tunnel (cloudflared)',
  ngrok: 'ngrok',
  localtunnel: 'localtunnel',
};

function draftOf(config: TunnelConfigView | null | undefined): Draft {
  if (!config) return { provider: 'localtunnel' };
  const { authtokenStored: _stored, ...rest } = config as TunnelConfigView & { authtokenStored?: boolean };
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, String(value)]));
}

const optional = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
const port = (value: string | undefined) => (value?.trim() ? Number(value) : undefined);

/** Field problems in words, before the server is asked. */
export function tunnelProblems(draft: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  const badPort = (value: string | undefined) => value !== undefined && value.trim() !== '' && !(Number.isInteger(Number(value)) && Number(value) >= 1 && Number(value) <= 65_535);
  if (draft.provider === 'ssh') {
    if (!draft.host?.trim()) problems.host = 'Enter the host to forward through, e.g. hooks.example.com.';
    if (!draft.remotePort?.trim()) problems.remotePort = 'Enter the port on the host that forwards to Steward.';
    else if (badPort(draft.remotePort)) problems.remotePort = 'A port is a whole number from 1 to 65535.';
    if (badPort(draft.port)) problems.port = 'A port is a whole number from 1 to 65535.';
    if (!/^https?:\/\/\S+$/.test(draft.publicUrl?.trim() ?? '')) problems.publicUrl = 'Enter the address the world reaches, starting with https://.';
  }
  if (draft.provider === 'localtunnel' && draft.subdomain && !/^[a-z0-9-]+$/.test(draft.subdomain)) problems.subdomain = 'Use lowercase letters, digits and dashes only.';
  return problems;
}

export function configOf(draft: Draft): TunnelConfig {
  switch (draft.provider) {
    case 'ssh':
      return { provider: 'ssh', host: draft.host?.trim() ?? '', user: optional(draft.user), port: port(draft.port), remotePort: Number(draft.remotePort), identityFile: optional(draft.identityFile), publicUrl: draft.publicUrl?.trim() ?? '' };
    case 'cloudflare':
      return { provider: 'cloudflare', binary: optional(draft.binary) };
    case 'ngrok':
      return { provider: 'ngrok', authtoken: optional(draft.authtoken), domain: optional(draft.domain) };
    default:
      return { provider: 'localtunnel', subdomain: optional(draft.subdomain), host: optional(draft.host) };
  }
}

export function TunnelSettings() {
  const { tunnel, configureTunnel, startTunnel, stopTunnel, toast } = useApp();
  const [draft, setDraft] = useState<Draft>(() => draftOf(tunnel?.config));
  const [shown, setShown] = useState<Record<string, string>>({});
  const action = useAction();
  const edit = (key: string, value: string) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    action.clearFor(key);
    // Once shown, a problem follows the typing, and disappears when fixed.
    const problems = tunnelProblems(next);
    setShown((before) => Object.fromEntries(Object.keys(before).flatMap((field) => (problems[field] ? [[field, problems[field]]] : []))));
  };
  const text = (key: string, label: string, hint?: string, type = 'text') => (
    <Field label={label} hint={hint} error={shown[key] ?? action.errorFor(key)}>
      <input type={type} className={type === 'password' ? undefined : 'mono'} value={draft[key] ?? ''} onChange={(event) => edit(key, event.target.value)} />
    </Field>
  );
  const save = async () => {
    const problems = tunnelProblems(draft);
    setShown(problems);
    if (Object.keys(problems).length > 0) return action.refused();
    const done = await action.run(async () => configureTunnel(configOf(draft)).then(() => true));
    toast(done === undefined ? 'failure' : 'success', done === undefined ? 'The tunnel was not saved.' : 'Tunnel saved.');
  };
  const running = tunnel && tunnel.state !== 'off';
  // Start runs what is saved: say so where the button is disabled, or would not use the edits.
  const unsaved = tunnel?.config ? JSON.stringify(configOf(draft)) !== JSON.stringify(configOf(draftOf(tunnel.config))) : false;
  const startNote = running ? undefined : !tunnel?.config ? 'Save the tunnel first: Start uses the saved settings.' : unsaved ? 'Unsaved changes: Start uses the saved settings until you save.' : undefined;
  const stored = tunnel?.config?.provider === 'ngrok' && tunnel.config.authtokenStored;
  return (
    <div className="card" aria-labelledby="tunnel-title">
      <h3 id="tunnel-title">Tunnel</h3>
      <div className="hint" style={{ marginBottom: 8 }}>A public address for webhook trigger URLs only; the rest of Steward stays on this machine.</div>
      {tunnel && (
        <div className="row wrap" data-testid="tunnel-state">
          <Badge status={tunnel.state} />
          {tunnel.publicUrl && <><code>{tunnel.publicUrl}</code><CopyButton text={tunnel.publicUrl} label="Copy URL" /></>}
          <span className="hint">since <Time iso={tunnel.since} /></span>
        </div>
      )}
      {tunnel?.reason && <div className="error" role="alert">{tunnel.reason}</div>}
      <form noValidate ref={action.formRef} aria-label="Tunnel" onSubmit={(event) => { event.preventDefault(); void save(); }} style={{ marginTop: 10 }}>
        <Field label="Provider" error={action.errorFor('provider')}>
          <select value={draft.provider} onChange={(event) => { setDraft({ provider: event.target.value }); setShown({}); action.clear(); }}>
            {(Object.keys(providerNames) as Provider[]).map((each) => <option key={each} value={each}>{providerNames[each]}</option>)}
          </select>
        </Field>
        {draft.provider === 'ssh' && (
          <>
            {text('host', 'Host', 'Reachable with your SSH keys and ssh config; its host key is always checked.')}
            {text('user', 'User (optional)')}
            {text('port', 'SSH port (optional)', 'Default 22, or your ssh config’s.')}
            {text('remotePort', 'Remote port', 'The port on the host that forwards to Steward.')}
            {text('identityFile', 'Identity file (optional)')}
            {text('publicUrl', 'Public URL', 'Where the world reaches that port, e.g. https://hooks.example.com.')}
          </>
        )}
        {draft.provider === 'cloudflare' && text('binary', 'Path to cloudflared (optional)', 'Default: cloudflared on PATH.')}
        {draft.provider === 'ngrok' && (
          <>
            {text('authtoken', 'Authtoken', stored ? 'Stored, never shown. Leave empty to keep it.' : 'Write-only, stored encrypted. Empty: NGROK_AUTHTOKEN is used.', 'password')}
            {text('domain', 'Reserved domain (optional)')}
          </>
        )}
        {draft.provider === 'localtunnel' && (
          <>
            {text('subdomain', 'Subdomain (optional)')}
            {text('host', 'Server (optional)', 'Default https://localtunnel.me.')}
          </>
        )}
        <ErrorLine message={action.generalError(['provider', 'host', 'user', 'port', 'remotePort', 'identityFile', 'publicUrl', 'binary', 'authtoken', 'domain', 'subdomain'])} />
        <div className="bar">
          <button className="primary" type="submit" disabled={action.busy}>Save tunnel</button>
          {running ? (
            <button type="button" onClick={() => void action.run(stopTunnel)}>Stop tunnel</button>
          ) : (
            <button type="button" disabled={!tunnel?.config} aria-describedby={startNote ? 'tunnel-start-note' : undefined} onClick={() => void action.run(startTunnel)}>Start tunnel</button>
          )}
          {startNote && <span className="hint" id="tunnel-start-note">{startNote}</span>}
        </div>
      </form>
    </div>
  );
}
