// The steward tools: the built-in agent manages Steward itself (the seed's manager role) through
// the same operations and validation as the HTTP API (and as Steward's MCP server). Its dispatch
// calls as the run (see the runner), so report_outcome records on that run.
import type { Dispatch } from '../../dispatch';
import { callStewardOperation, describeOperation, stewardInputSchema, stewardOperations } from '../../steward-operations';
import type { Tool } from './tool';

export function stewardTools(dispatch: Dispatch): Tool[] {
  return stewardOperations.map((tool) => ({
    name: tool.name,
    description: describeOperation(tool),
    parameters: stewardInputSchema(tool.operation),
    async run(args) {
      return JSON.stringify(await callStewardOperation(dispatch, tool.operation, args));
    },
  }));
}
