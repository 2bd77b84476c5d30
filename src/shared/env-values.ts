// An agent configuration without the values of its environment variables: what may be shown where
// a value would leak (a run's key reading instances, an activity line): the names stay, each value
// is replaced. Covers the agent's own `env` and its stdio MCP servers' `env`.
import type { AgentConfig } from './contract';

export const hiddenEnvValue = '[hidden]';

const hidden = (env: Record<string, string> | undefined) => env && Object.fromEntries(Object.keys(env).map((name) => [name, hiddenEnvValue]));

export function withoutEnvValues(agent: AgentConfig): AgentConfig {
  if (agent.provider === 'openai') {
    if (!agent.mcpServers) return agent;
    return { ...agent, mcpServers: agent.mcpServers.map((server) => (server.transport === 'stdio' && server.env ? { ...server, env: hidden(server.env) } : server)) };
  }
  return agent.env ? { ...agent, env: hidden(agent.env) } : agent;
}
