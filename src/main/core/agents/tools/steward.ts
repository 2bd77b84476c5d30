// The steward tools: the built-in agent manages Steward itself (the seed's manager role) through
// the same operations and validation as the HTTP API (and as Steward's MCP server). Its dispatch
// calls as the run (see the runner): it reaches what a CLI agent's run key reaches (its own
// instance, and the instances that accept its prompts), and report_outcome records on that run.
import type { Caller } from '../../caller';
import type { Dispatch } from '../../operation-call';
import { callStewardOperation, describeOperation, stewardInputSchema, stewardOperationsFor } from '../../steward-operations';
import type { Tool } from './tool';

/** `caller`: who the dispatch calls as (the run), for the list of tools it may call. */
export function stewardTools(dispatch: Dispatch, caller: Caller): Tool[] {
  return stewardOperationsFor(caller).map((tool) => ({
    name: tool.name,
    description: describeOperation(tool),
    parameters: stewardInputSchema(tool.operation),
    async run(args) {
      return JSON.stringify(await callStewardOperation(dispatch, tool.operation, args));
    },
  }));
}
