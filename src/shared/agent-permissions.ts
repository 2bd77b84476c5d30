// Which agents can ask Steward before they act (an instance's `permissions: ask`), each through its
// own documented mechanism, and what to say of one that cannot.
import type { AgentConfig } from './contract';

/** Presets whose CLI hands its permission prompts to a tool of Steward's MCP server. */
const asking: Record<string, string> = {
  'claude-code': "Claude Code's --permission-prompt-tool",
};

/** How the agent asks, or null when it cannot. */
export function askMechanism(agent: AgentConfig): string | null {
  if (agent.provider === 'openai') return 'the built-in agent asks before its shell, file-writing and http tools';
  if (agent.provider === 'acp') return "the Agent Client Protocol's session/request_permission";
  return asking[agent.preset] ?? null;
}

/**
 * Why `permissions: ask` cannot work for this agent, or null when it can. The API names the values
 * (`"ask"`, `"bypass"`); the form (`door: 'form'`) names the choices as the form shows them.
 */
export function askProblem(agent: AgentConfig, door: 'api' | 'form' = 'api'): string | null {
  const form = door === 'form';
  if (agent.provider === 'command' && askMechanism(agent) !== null && agent.stewardTools === false) {
    return form
      ? "Asking a person goes through Steward's MCP server: tick “Give runs Steward’s tools” again."
      : "permissions \"ask\" goes through Steward's MCP server: turn the agent's stewardTools back on.";
  }
  if (askMechanism(agent) !== null) return null;
  const name = agent.provider === 'command' ? agent.preset : agent.provider;
  return form
    ? `The ${name} agent has no way to ask before it acts; “Ask a person before each action” works with claude-code, ACP agents and the built-in agent. Choose “Act without asking”, or have its automations and webhooks ask a person before each run (their Approval section).`
    : `The ${name} agent has no way to ask before it acts; permissions "ask" works with claude-code, ACP agents and the built-in agent. Use "bypass", or run it with approval "before-run" on its automations and webhooks.`;
}
