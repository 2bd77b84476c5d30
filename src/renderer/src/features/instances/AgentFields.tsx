// The agent editor, one component wherever an agent is chosen (new instance, "Edit agent",
// onboarding, the agent of new instances): a CLI preset or any command with its arguments (and the
// command line that will run), environment variables, an Agent Client Protocol agent, or the
// built-in OpenAI-compatible agent (with its own MCP servers).
import { useId, useState } from 'react';
import { type AgentConfig, commandPresets, defaultOpenAiBaseUrl } from '../../../../shared/contract';
import { AcpFields } from './AcpFields';
import { ArgsField, agentEnvHint, envLeftOut, envText, parseEnv } from './ArgsField';
import { McpServersEditor } from './McpServersEditor';
import { SecretPicker } from '../settings/SecretPicker';
import { Field } from '../../ui/widgets';

type CommandAgent = Extract<AgentConfig, { provider: 'command' }>;
type Kind = CommandAgent['preset'] | 'openai' | 'acp';

export const presetNames: Record<Exclude<Kind, 'custom' | 'openai' | 'acp'>, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  goose: 'goose',
  opencode: 'OpenCode',
};

export function describeAgent(agent: AgentConfig): string {
  if (agent.provider === 'openai') return `${agent.model} at ${agent.baseUrl}`;
  if (agent.provider === 'acp') return `ACP: ${[agent.command, ...(agent.args ?? [])].map(quote).join(' ')}`;
  return agent.preset === 'custom' ? `custom: ${commandLine(agent)}` : [agent.preset, ...(agent.args ?? []).map(quote)].join(' ');
}

/** One word of a command line as a POSIX shell would need it written. */
export function quote(word: string): string {
  return /^[\w@%+=:,./{}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command line a custom agent runs: `sh -c 'echo "$(cat)"'`. */
export function commandLine(agent: CommandAgent): string {
  return [agent.command ?? '', ...(agent.args ?? [])].map(quote).join(' ');
}

/** A fresh configuration of a kind: what choosing it in the select gives. */
export function agentOfKind(kind: Kind): AgentConfig {
  if (kind === 'openai') return { provider: 'openai', baseUrl: defaultOpenAiBaseUrl, model: 'qwen3:8b' };
  if (kind === 'acp') return { provider: 'acp', command: 'gemini', args: ['--acp'] };
  return kind === 'custom' ? { provider: 'command', preset: 'custom', command: 'cat' } : { provider: 'command', preset: kind };
}

function CommandFields({ agent, onChange, errorFor }: { agent: CommandAgent; onChange: (agent: AgentConfig) => void; errorFor: (field: string) => string | undefined }) {
  const [env, setEnv] = useState(() => envText(agent.env));
  const custom = agent.preset === 'custom';
  const setArgs = (args: string[]) => onChange({ ...agent, args: args.length > 0 ? args : undefined });
  const usesPrompt = (agent.args ?? []).some((arg) => arg.includes('{prompt}'));
  const toolsHint = useId();
  return (
    <>
      {custom && (
        <Field label="Command" error={errorFor('agent.command')} hint="An executable on Steward's PATH, or its full path; only the program's name, its arguments go below.">
          <input className="mono" value={agent.command ?? ''} onChange={(event) => onChange({ ...agent, command: event.target.value })} />
        </Field>
      )}
      <ArgsField label={custom ? 'Arguments' : 'Extra arguments (after the preset’s own)'} args={agent.args ?? []} onChange={setArgs} error={errorFor('agent.args')} />
      {custom && (
        <div className="field">
          <div className="hint">Runs, in the instance’s workspace:</div>
          <pre data-testid="command-line">{agent.command ? commandLine(agent) : '(type a command above)'}</pre>
          <div className="hint">
            {usesPrompt ? 'Each {prompt} in the arguments is replaced by the prompt.' : 'The prompt goes to its stdin.'} Each line it prints is a reply; exit code 0 is success.
          </div>
        </div>
      )}
      <Field label="Environment" error={errorFor('agent.env') ?? envLeftOut(env)} hint={`${agentEnvHint} E.g. IS_SANDBOX=1 for Claude Code run as root.`}>
        <textarea className="mono short" value={env} onChange={(event) => { setEnv(event.target.value); onChange({ ...agent, env: parseEnv(event.target.value) }); }} />
      </Field>
      <div className="field">
        <label className="switch">
          <input type="checkbox" aria-describedby={toolsHint} checked={agent.stewardTools ?? !custom} onChange={(event) => onChange({ ...agent, stewardTools: event.target.checked })} />
          Give runs Steward’s tools
        </label>
        <div className="hint" id={toolsHint}>
          Each run gets Steward’s MCP server with a key of its own: it can schedule follow-ups and make webhooks for this instance, and send prompts to
          the instances that accept them.{custom ? ' A custom program gets STEWARD_MCP_URL and STEWARD_API_KEY in its environment.' : ''}
        </div>
      </div>
    </>
  );
}

/** The agent settings form; `hideKind` when the kind is chosen elsewhere (the onboarding's choices). */
export function AgentFields(props: { agent: AgentConfig; onChange: (agent: AgentConfig) => void; errorFor: (field: string) => string | undefined; hideKind?: boolean; models?: string[] }) {
  const { agent, onChange, errorFor } = props;
  const kind: Kind = agent.provider === 'command' ? agent.preset : agent.provider;
  const modelsId = useId();
  return (
    <>
      {!props.hideKind && (
        <Field label="Agent" error={errorFor('agent.preset') ?? errorFor('agent.provider')}>
          <select value={kind} onChange={(event) => onChange(agentOfKind(event.target.value as Kind))}>
            {commandPresets.map((preset) => <option key={preset} value={preset}>{preset === 'custom' ? 'Custom command' : preset}</option>)}
            <option value="acp">ACP (any Agent Client Protocol agent: gemini --acp, opencode acp, goose acp…)</option>
            <option value="openai">Built-in (OpenAI-compatible: Ollama, LM Studio, OpenRouter…)</option>
          </select>
        </Field>
      )}
      {agent.provider === 'command' && <CommandFields key={kind} agent={agent} onChange={onChange} errorFor={errorFor} />}
      {agent.provider === 'acp' && <AcpFields agent={agent} onChange={onChange} errorFor={errorFor} />}
      {agent.provider === 'openai' && (
        <>
          <Field label="Base URL" error={errorFor('agent.baseUrl')}>
            <input className="mono" value={agent.baseUrl} onChange={(event) => onChange({ ...agent, baseUrl: event.target.value })} />
          </Field>
          <Field label="Model" error={errorFor('agent.model')} hint={props.models?.length ? `The server has ${props.models.join(', ')}.` : undefined}>
            <input className="mono" list={modelsId} value={agent.model} onChange={(event) => onChange({ ...agent, model: event.target.value })} />
          </Field>
          {props.models && <datalist id={modelsId}>{props.models.map((model) => <option key={model} value={model} />)}</datalist>}
          <Field label="API key (a stored secret, optional)" error={errorFor('agent.apiKeyRef')} hint="Store one under Secrets in Settings.">
            <SecretPicker value={agent.apiKeyRef} onChange={(apiKeyRef) => onChange({ ...agent, apiKeyRef })} />
          </Field>
          {!props.hideKind && (
            <McpServersEditor
              label="This agent’s MCP servers"
              hint="Added to the MCP servers in Settings; one with the same name replaces that one for this agent."
              servers={agent.mcpServers ?? []}
              onChange={(servers) => onChange({ ...agent, mcpServers: servers.length > 0 ? servers : undefined })}
              errorFor={errorFor}
              field="agent.mcpServers"
            />
          )}
        </>
      )}
    </>
  );
}
