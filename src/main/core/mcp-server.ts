// Steward as an MCP server: the steward operations as MCP tools, each call dispatched with the
// contract's validation. A refused call is a tool result with isError (the API's error body), so
// the client's model can read it and try again; an unknown tool is the protocol error -32602. A
// caller sees only the tools it may call (a key of a narrower scope than admin, a run's key by the
// reach each operation declares); calling another one is `forbidden`. A run's key calls as that
// run: its own instance's, and what it starts is the run's child (caller.ts, run-key-reach.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../../package.json' with { type: 'json' };
import { AppError } from '../../shared/errors';
import type { Dispatch } from './dispatch';
import { type Caller, adminCaller } from './caller';
import { storageErrorOf } from './store/storage-condition';
import { callStewardOperation, describeOperation, stewardInputSchema, stewardOperationsFor, stewardOperations } from './steward-operations';

export function createMcpServer(dispatch: Dispatch, caller: Caller = adminCaller): Server {
  const server = new Server({ name: 'steward', version: packageJson.version }, { capabilities: { tools: {} } });
  const allowed = stewardOperationsFor(caller);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: allowed.map((tool) => ({
      name: tool.name,
      description: describeOperation(tool),
      inputSchema: stewardInputSchema(tool.operation) as { type: 'object' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    const tool = stewardOperations.find(({ name }) => name === params.name);
    // The spec's protocol error for an unknown tool, not a tool result: nothing ran.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    try {
      const output = await callStewardOperation(dispatch, tool.operation, params.arguments ?? {}, caller);
      return { content: [{ type: 'text', text: JSON.stringify(output ?? null) }] };
    } catch (error) {
      const known = error instanceof AppError ? error : storageErrorOf(error);
      if (known) return errorResult(known);
      throw error;
    }
  });
  return server;
}

function errorResult(error: AppError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error.toBody()) }] };
}
