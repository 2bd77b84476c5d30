// Codex: `codex exec --json`, one JSON event per line — thread.started, turn.started/completed
// (with token usage), turn.failed, error, and item.started/updated/completed for the items:
// agent_message, reasoning, command_execution, file_change, mcp_tool_call, web_search, todo_list,
// error. Approvals and the sandbox are off (full tool access, unattended); the workspace need not
// be a git repository.
import type { AgentEvent } from '../events';
import { type Preset, asRecord, describeUsage, finished, stateless, text } from './common';

function completedItem(item: Record<string, unknown>, raw: Record<string, unknown>): AgentEvent[] {
  switch (item.type) {
    case 'agent_message':
      return [{ type: 'assistant', text: text(item.text), raw }];
    case 'command_execution':
      return [
        { type: 'tool_call', name: 'shell', input: { command: item.command }, raw },
        { type: 'tool_result', output: text(item.aggregated_output), isError: item.status === 'failed' || (typeof item.exit_code === 'number' && item.exit_code !== 0), raw },
      ];
    case 'file_change':
      return [{ type: 'tool_call', name: 'file_change', input: item.changes, raw }];
    case 'mcp_tool_call':
      return [{ type: 'tool_call', name: `${text(item.server)}.${text(item.tool)}`, input: item.arguments, raw }];
    case 'web_search':
      return [{ type: 'tool_call', name: 'web_search', input: { query: item.query }, raw }];
    case 'error':
      return [{ type: 'system', text: `Codex error: ${text(item.message)}`, raw }];
    default:
      return [];
  }
}

function parse(raw: Record<string, unknown>): AgentEvent[] {
  switch (raw.type) {
    case 'thread.started':
      return [{ type: 'system', text: `Codex started (thread ${text(raw.thread_id)})`, raw }];
    case 'item.completed':
      return completedItem(asRecord(raw.item), raw);
    case 'turn.completed': {
      const usage = asRecord(raw.usage);
      return [{ type: 'system', text: finished('Codex', describeUsage({ inputTokens: usage.input_tokens, outputTokens: usage.output_tokens })), raw }];
    }
    case 'turn.failed':
      return [{ type: 'system', text: `Codex failed: ${text(asRecord(raw.error).message)}`, raw }];
    case 'error':
      return [{ type: 'system', text: `Codex error: ${text(raw.message)}`, raw }];
    default:
      return [];
  }
}

export const codex: Preset = {
  command: 'codex',
  args: ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', '-'],
  parser: stateless(parse),
};
