// The built-in agent's MCP servers as a list to edit: one in Settings (every built-in-agent run) and
// one in the agent form of an openai instance (its own, added to those). Each server is a command
// (arguments, environment) spoken to over stdio, or a Streamable HTTP URL whose headers take their
// values from stored secrets. Changes go to `onChange`; the form around it saves them. A server
// still open in its form is not forgotten by that save: `pending` hands the list with it (checked).
import { type MutableRefObject, useEffect, useId, useRef, useState } from 'react';
import { type McpServerConfig, McpServerName } from '../../../../shared/contract';
import { ArgsField, envLeftOut, envText, parseEnv } from './ArgsField';
import { SecretPicker } from '../settings/SecretPicker';
import { Field, useEscape } from '../../ui/widgets';

/** What is wrong with a server before it is sent, field by field (the server checks again). */
export function mcpServerProblems(server: McpServerConfig, others: McpServerConfig[]): Partial<Record<'name' | 'command' | 'url' | 'headers', string>> {
  const problems: Partial<Record<'name' | 'command' | 'url' | 'headers', string>> = {};
  if (!McpServerName.safeParse(server.name).success) problems.name = 'Use 1 to 32 lowercase letters, digits, dashes or underscores, starting with a letter or digit.';
  else if (others.some((other) => other.name === server.name)) problems.name = `Another server is named ${server.name}.`;
  if (server.transport === 'stdio' && server.command.trim() === '') problems.command = 'Give the command that starts the server, e.g. npx.';
  if (server.transport === 'http') {
    if (!/^https?:\/\/\S+$/.test(server.url)) problems.url = 'Give an http:// or https:// URL, e.g. https://example.com/mcp.';
    if (Object.entries(server.headers ?? {}).some(([header, secret]) => header === '' || secret === '')) problems.headers = 'Each header needs a name and a secret.';
  }
  return problems;
}

function describeServer(server: McpServerConfig): string {
  return server.transport === 'stdio' ? [server.command, ...(server.args ?? [])].join(' ') : server.url;
}

function HeadersField({ headers, onChange, error }: { headers: [string, string][]; onChange: (headers: [string, string][]) => void; error?: string | undefined }) {
  const id = useId();
  const set = (index: number, entry: [string, string]) => onChange(headers.map((each, at) => (at === index ? entry : each)));
  return (
    <fieldset className="args" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Headers (each value is a stored secret)</legend>
      {headers.map(([header, secret], index) => (
        <div className="row" key={index}>
          <input className="mono" aria-label={`Header ${index + 1} name`} placeholder="Authorization" value={header} onChange={(event) => set(index, [event.target.value, secret])} />
          <SecretPicker aria-label={`Header ${index + 1} secret`} noneLabel="Choose a secret" value={secret || undefined} onChange={(name) => set(index, [header, name ?? ''])} />
          <button type="button" aria-label={`Remove header ${index + 1}`} onClick={() => onChange(headers.filter((_, at) => at !== index))}>Remove</button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...headers, ['Authorization', '']])}>Add header</button>
      {error && <div className="error" role="alert" id={`${id}-error`}>{error}</div>}
    </fieldset>
  );
}

/** One server's fields; `Apply` hands it back once it looks right. */
function ServerForm(props: { initial: McpServerConfig; others: McpServerConfig[]; onApply: (server: McpServerConfig) => void; onCancel: () => void; check: MutableRefObject<(() => McpServerConfig | undefined) | null> }) {
  useEscape(true, props.onCancel);
  const [server, setServer] = useState<McpServerConfig>(props.initial);
  const [env, setEnv] = useState(() => (props.initial.transport === 'stdio' ? envText(props.initial.env) : ''));
  const [headers, setHeaders] = useState<[string, string][]>(() => (props.initial.transport === 'http' ? Object.entries(props.initial.headers ?? {}) : []));
  const [checked, setChecked] = useState(false);
  const built: McpServerConfig = server.transport === 'http' ? { ...server, headers: headers.length > 0 ? Object.fromEntries(headers) : undefined } : server;
  const problems = checked ? mcpServerProblems(built, props.others) : {};
  const switchTo = (transport: McpServerConfig['transport']) =>
    setServer(transport === 'stdio' ? { name: server.name, transport, command: '', enabled: server.enabled } : { name: server.name, transport, url: '', enabled: server.enabled });
  /** The server as typed if it has no problem; otherwise undefined, its problems now shown. */
  const check = () => {
    setChecked(true);
    return Object.keys(mcpServerProblems(built, props.others)).length === 0 ? built : undefined;
  };
  props.check.current = check;
  const apply = () => {
    const server = check();
    if (server) props.onApply(server);
  };
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="card nested" role="group" aria-label={props.initial.name ? `MCP server ${props.initial.name}` : 'New MCP server'}>
      <div className="grid-2">
        <Field label="Server name" error={problems.name} hint="Its tools are named <name>__<tool>.">
          <input ref={first} className="mono" value={server.name} placeholder="github" onChange={(event) => setServer({ ...server, name: event.target.value })} />
        </Field>
        <Field label="Transport">
          <select value={server.transport} onChange={(event) => switchTo(event.target.value as McpServerConfig['transport'])}>
            <option value="stdio">A command (stdio)</option>
            <option value="http">A URL (Streamable HTTP)</option>
          </select>
        </Field>
      </div>
      {server.transport === 'stdio' ? (
        <>
          <Field label="Command" error={problems.command} hint="Started in the instance’s workspace for each run, ended with it.">
            <input className="mono" value={server.command} placeholder="npx" onChange={(event) => setServer({ ...server, command: event.target.value })} />
          </Field>
          <ArgsField label="Arguments" args={server.args ?? []} onChange={(args) => setServer({ ...(server), args: args.length > 0 ? args : undefined })} />
          <Field label="Environment" error={envLeftOut(env)} hint="NAME=value, one per line; added to PATH, HOME and a few more.">
            <textarea className="mono short" value={env} onChange={(event) => { setEnv(event.target.value); setServer({ ...(server), env: parseEnv(event.target.value) }); }} />
          </Field>
        </>
      ) : (
        <>
          <Field label="URL" error={problems.url}>
            <input className="mono" value={(server).url} placeholder="https://example.com/mcp" onChange={(event) => setServer({ ...(server), url: event.target.value })} />
          </Field>
          <HeadersField headers={headers} onChange={setHeaders} error={problems.headers} />
        </>
      )}
      <label className="switch"><input type="checkbox" checked={server.enabled !== false} onChange={(event) => setServer({ ...server, enabled: event.target.checked ? undefined : false })} /> Use it in runs</label>
      <div className="bar" style={{ marginTop: 8, marginBottom: 0 }}>
        <button type="button" className="primary" onClick={apply}>Apply</button>
        <button type="button" onClick={props.onCancel}>Cancel</button>
      </div>
    </div>
  );
}

/** The list, with add, edit and remove; `field` is where the API reports its problems (`mcpServers`, `agent.mcpServers`). */
export function McpServersEditor(props: { label: string; hint?: string; servers: McpServerConfig[]; onChange: (servers: McpServerConfig[]) => void; errorFor: (field: string) => string | undefined; field: string; pending?: MutableRefObject<(() => McpServerConfig[] | undefined) | null> }) {
  const { servers, onChange } = props;
  /** The index being edited; `servers.length` for a new one. */
  const [editing, setEditing] = useState<number | undefined>();
  const check = useRef<(() => McpServerConfig | undefined) | null>(null);
  const withOpen = (server: McpServerConfig, at: number) => (at < servers.length ? servers.map((each, index) => (index === at ? server : each)) : [...servers, server]);
  if (props.pending) {
    // What a save sends: the list with the server being edited, or nothing while that one has a problem.
    props.pending.current = () => {
      if (editing === undefined || !check.current) return servers;
      const server = check.current();
      if (!server) return undefined;
      const list = withOpen(server, editing);
      onChange(list);
      setEditing(undefined);
      return list;
    };
  }
  const headingId = useId();
  const listError = props.errorFor(props.field) && !servers.some((_, index) => props.errorFor(`${props.field}.${index}`)) ? props.errorFor(props.field) : undefined;
  return (
    <div className="field">
      <div id={headingId} style={{ fontWeight: 600 }}>{props.label}</div>
      {props.hint && <div className="hint">{props.hint}</div>}
      {servers.length > 0 && (
        <table aria-labelledby={headingId} style={{ margin: '6px 0' }}>
          <thead><tr><th>Name</th><th>Command or URL</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {servers.map((server, index) => (
              <tr key={server.name + index}>
                <td className="mono">{server.name}{server.enabled === false && <span className="hint"> (off)</span>}</td>
                <td>
                  <code>{describeServer(server)}</code>
                  {props.errorFor(`${props.field}.${index}`) && <div className="error" role="alert">{props.errorFor(`${props.field}.${index}`)}</div>}
                </td>
                <td className="actions">
                  <button type="button" aria-label={`Edit ${server.name}`} onClick={() => setEditing(index)}>Edit</button>
                  <button type="button" className="danger" aria-label={`Remove ${server.name}`} onClick={() => { onChange(servers.filter((_, at) => at !== index)); setEditing(undefined); }}>Remove</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {listError && <div className="error" role="alert">{listError}</div>}
      {editing === undefined ? (
        <button type="button" onClick={() => setEditing(servers.length)}>Add MCP server</button>
      ) : (
        <ServerForm
          key={editing}
          initial={servers[editing] ?? { name: '', transport: 'stdio', command: '' }}
          others={servers.filter((_, at) => at !== editing)}
          check={check}
          onCancel={() => setEditing(undefined)}
          onApply={(server) => {
            onChange(withOpen(server, editing));
            setEditing(undefined);
          }}
        />
      )}
    </div>
  );
}
