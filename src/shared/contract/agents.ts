// Agent configurations an instance can run (DESIGN §5), and what this machine offers: the CLIs
// found on PATH and an OpenAI-compatible server answering (the first-start onboarding asks).
import { z } from 'zod';
import { EnvVars, NoInput, defineOperation } from './common';
import { McpServerList } from './mcp-servers';

/** The OpenAI-compatible server a new user most likely runs: Ollama on this machine. */
export const defaultOpenAiBaseUrl = 'http://127.0.0.1:11434/v1';

export const commandPresets = ['claude-code', 'codex', 'gemini', 'goose', 'opencode', 'custom'] as const;


export const CommandAgent = z
  .strictObject({
    provider: z.literal('command'),
    preset: z.enum(commandPresets),
    command: z.string().min(1).optional().describe('Executable; required for the custom preset'),
    args: z.array(z.string()).optional(),
    env: EnvVars.optional(),
    timeoutSeconds: z.int().min(1).max(86_400).optional(),
    stewardTools: z
      .boolean()
      .optional()
      .describe("Give each run Steward's MCP server with a key of its own (default: on for presets; a custom command gets STEWARD_MCP_URL and STEWARD_API_KEY when on)"),
  })
  .refine((agent) => agent.preset !== 'custom' || agent.command !== undefined, {
    message: 'is required for a custom agent',
    path: ['command'],
  });

/** The built-in agent's tool groups: shell, files (read, write, list), http, steward (manage Steward itself). */
export const openAiToolGroups = ['shell', 'files', 'http', 'steward'] as const;
export type OpenAiToolGroup = (typeof openAiToolGroups)[number];

export const OpenAiAgent = z.strictObject({
  provider: z.literal('openai'),
  baseUrl: z.url({ protocol: /^https?$/ }).default(defaultOpenAiBaseUrl),
  model: z.string().min(1),
  apiKeyRef: z.string().min(1).optional().describe('Name of a stored secret holding the API key'),
  tools: z.array(z.enum(openAiToolGroups)).optional().describe('Tool groups the agent may use; all by default'),
  maxSteps: z.int().min(1).max(1000).optional().describe('Model calls per run before it is stopped (default 25)'),
  timeoutSeconds: z.int().min(1).max(86_400).optional(),
  mcpServers: McpServerList.optional().describe("This instance's MCP servers, added to the settings' ones (the same name replaces it)"),
});

/** Any agent that speaks the Agent Client Protocol over stdio: `gemini --acp`, `opencode acp`, `goose acp`, the Claude Code and Codex adapters. */
export const AcpAgent = z.strictObject({
  provider: z.literal('acp'),
  command: z.string().min(1).describe('Executable that speaks ACP on its stdin and stdout (gemini, opencode, goose, npx, ...)'),
  args: z.array(z.string()).optional().describe('Its arguments that select ACP mode, e.g. ["--acp"] for gemini, ["acp"] for opencode and goose'),
  env: EnvVars.optional(),
  timeoutSeconds: z.int().min(1).max(86_400).optional(),
  stewardTools: z.boolean().optional().describe("Give each run Steward's MCP server with a key of its own, when the agent takes HTTP MCP servers (default on)"),
});

export const AgentConfig = z.discriminatedUnion('provider', [CommandAgent, OpenAiAgent, AcpAgent]);
export type AgentConfig = z.output<typeof AgentConfig>;


export const DetectedAgent = z.object({
  preset: z.enum(commandPresets).exclude(['custom']),
  command: z.string().describe('The executable the preset runs'),
  found: z.boolean(),
  path: z.string().nullable().describe('Where it was found on PATH'),
  version: z.string().nullable().describe('What `--version` answered, when it answered one'),
  problem: z.string().nullable().describe('Why it cannot run as found, with the remedy (e.g. Claude Code as root)'),
});
export type DetectedAgent = z.infer<typeof DetectedAgent>;

export const AgentDetection = z.object({
  agents: z.array(DetectedAgent),
  openai: z.object({
    baseUrl: z.string(),
    reachable: z.boolean().describe('It answered GET /models with a model list'),
    models: z.array(z.string()),
    error: z.string().nullable().describe('Why it is not reachable'),
  }),
});
export type AgentDetection = z.infer<typeof AgentDetection>;

export const agentOperations = {
  'agents.detect': defineOperation({
    name: 'agents.detect', method: 'GET', path: '/api/agents/detect',
    summary: 'Which agent CLIs are on PATH (with their versions), and whether an OpenAI-compatible server answers at baseUrl (default: Ollama on this machine) with its models',
    auth: true, status: 200, params: NoInput,
    query: z.strictObject({ baseUrl: z.url({ protocol: /^https?$/ }).optional().describe(`Default ${defaultOpenAiBaseUrl}`) }),
    body: z.undefined(), output: AgentDetection,
  }),
};
