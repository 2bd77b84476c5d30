// Which agents report what a run cost (in US dollars) and which only its tokens: budgets in dollars
// count only the former, and the budget form says so.
import type { AgentConfig } from './contract';

const costReporting: Record<string, boolean> = {
  'claude-code': true, // the result line's total_cost_usd
  opencode: true, // each step_finish's cost
  codex: false, // tokens only (turn.completed usage)
  gemini: false, // tokens only (the result's stats)
  goose: false,
  custom: false,
};

export function reportsCost(agent: AgentConfig): boolean {
  return agent.provider === 'command' ? (costReporting[agent.preset] ?? false) : false;
}
