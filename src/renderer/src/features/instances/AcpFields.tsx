// The fields of an Agent Client Protocol agent: the command that speaks ACP on stdio, its arguments
// (the ones that start its ACP mode), its environment, and Steward's tools.
import { useId, useState } from 'react';
import type { AgentConfig } from '../../../../shared/contract';
import { ArgsField, agentEnvHint, envLeftOut, envText, parseEnv } from './ArgsField';
import { Field } from '../../ui/widgets';

type AcpAgent = Extract<AgentConfig, { provider: 'acp' }>;

export function AcpFields({ agent, onChange, errorFor }: { agent: AcpAgent; onChange: (agent: AgentConfig) => void; errorFor: (field: string) => string | undefined }) {
  const [env, setEnv] = useState(() => envText(agent.env));
  const toolsHint = useId();
  return (
    <>
      <Field label="Command" error={errorFor('agent.command')} hint="An agent that speaks the Agent Client Protocol on stdio: gemini --acp, opencode acp, goose acp, npx @agentclientprotocol/claude-agent-acp.">
        <input className="mono" value={agent.command} onChange={(event) => onChange({ ...agent, command: event.target.value })} />
      </Field>
      <ArgsField label="Arguments" args={agent.args ?? []} onChange={(args) => onChange({ ...agent, args: args.length > 0 ? args : undefined })} error={errorFor('agent.args')} />
      <Field label="Environment" error={errorFor('agent.env') ?? envLeftOut(env)} hint={agentEnvHint}>
        <textarea className="mono short" value={env} onChange={(event) => { setEnv(event.target.value); onChange({ ...agent, env: parseEnv(event.target.value) }); }} />
      </Field>
      <div className="field">
        <label className="switch">
          <input type="checkbox" aria-describedby={toolsHint} checked={agent.stewardTools ?? true} onChange={(event) => onChange({ ...agent, stewardTools: event.target.checked })} />
          Give runs Steward’s tools
        </label>
        <div className="hint" id={toolsHint}>Each run’s session gets Steward’s MCP server with a key of its own, when the agent takes HTTP MCP servers.</div>
      </div>
    </>
  );
}
