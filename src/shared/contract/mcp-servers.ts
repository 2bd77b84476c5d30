// MCP servers the built-in agent uses (DESIGN §9): a command it starts and speaks to over stdio,
// or a Streamable HTTP URL. Listed in the settings (every built-in-agent run) and per openai
// instance (added to those; the same name overrides). An HTTP header's value is the NAME of a
// stored secret, read at run start: a secret's value is never part of a configuration.
import { z } from 'zod';
import { EnvVars } from './common';
import { SecretName } from './secrets';

export const McpServerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'must be 1 to 32 lowercase letters, digits, dashes or underscores, starting with a letter or digit')
  .describe('Unique in its list; its tools are named <name>__<tool>');

const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name');

const common = {
  name: McpServerName,
  enabled: z.boolean().optional().describe('false: kept, not started (default true)'),
};

export const McpStdioServer = z.strictObject({
  ...common,
  transport: z.literal('stdio'),
  command: z.string().min(1).describe('Executable, started in the instance workspace'),
  args: z.array(z.string()).optional(),
  env: EnvVars.optional().describe("Added to the agent's environment: a few of Steward's variables (PATH, HOME, …) and the instance's sandbox.envAllow, never the rest of Steward's"),
});

export const McpHttpServer = z.strictObject({
  ...common,
  transport: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }).describe('The Streamable HTTP endpoint, e.g. https://example.com/mcp'),
  headers: z.record(HeaderName, SecretName).optional().describe('Header name → name of the stored secret sent as its value'),
});

export const McpServerConfig = z.discriminatedUnion('transport', [McpStdioServer, McpHttpServer]);
export type McpServerConfig = z.output<typeof McpServerConfig>;

/** A list of servers whose names are unique; a repeated name is refused at its place (`mcpServers.2.name`). */
export const McpServerList = z.array(McpServerConfig).superRefine((servers, ctx) => {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    if (seen.has(server.name)) ctx.addIssue({ code: 'custom', message: `is used by another server in the list: "${server.name}"`, path: [index, 'name'] });
    seen.add(server.name);
  });
});

/** The servers a run uses: the settings' list, each replaced by an instance's of the same name, then the instance's others. */
export function mergeMcpServers(fromSettings: readonly McpServerConfig[], fromInstance: readonly McpServerConfig[] = []): McpServerConfig[] {
  const own = new Map(fromInstance.map((server) => [server.name, server]));
  const merged = fromSettings.map((server) => own.get(server.name) ?? server);
  const taken = new Set(merged.map((server) => server.name));
  return [...merged, ...fromInstance.filter((server) => !taken.has(server.name))];
}
