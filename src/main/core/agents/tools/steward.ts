// The steward tools: the built-in agent manages Steward itself (the seed's manager role) through
// the same operations and validation as the HTTP API (and as Steward's MCP server).
import type { Dispatch } from '../../dispatch';
import { callStewardOperation, describeOperation, stewardInputSchema, stewardOperations } from '../../steward-operations';
import type { Tool } from './tool';

export function stewardTools(dispatch: Dispatch): Tool[] {
  return stewardOperations.map(({ name, operation }) => ({
    name,
    description: describeOperation(operation),
    parameters: stewardInputSchema(operation),
    async run(args) {
      return JSON.stringify(await callStewardOperation(dispatch, operation, args));
    },
  }));
}
