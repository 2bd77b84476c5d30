// Agent configurations an instance can run (DESIGN §5).
import { z } from 'zod';

export const commandPresets = ['claude-code', 'codex', 'gemini', 'goose', 'opencode', 'custom'] as const;

const EnvVars = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string())
  .describe('Extra environment variables for the agent process');

export const CommandAgent = z
  .strictObject({
    provider: z.literal('command'),
    preset: z.enum(commandPresets),
    command: z.string().min(1).optional().describe('Executable; required for the custom preset'),
    args: z.array(z.string()).optional(),
    env: EnvVars.optional(),
    timeoutSeconds: z.int().min(1).max(86_400).optional(),
  })
  .refine((agent) => agent.preset !== 'custom' || agent.command !== undefined, {
    message: 'a custom agent needs a command',
    path: ['command'],
  });

/** The built-in agent's tool groups: shell, files (read, write, list), http, steward (manage Steward itself). */
export const openAiToolGroups = ['shell', 'files', 'http', 'steward'] as const;
export type OpenAiToolGroup = (typeof openAiToolGroups)[number];

export const OpenAiAgent = z.strictObject({
  provider: z.literal('openai'),
  baseUrl: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:11434/v1'),
  model: z.string().min(1),
  apiKeyRef: z.string().min(1).optional().describe('Name of a stored secret holding the API key'),
  tools: z.array(z.enum(openAiToolGroups)).optional().describe('Tool groups the agent may use; all by default'),
  maxSteps: z.int().min(1).max(1000).optional().describe('Model calls per run before it is stopped (default 25)'),
  timeoutSeconds: z.int().min(1).max(86_400).optional(),
});

export const AgentConfig = z.discriminatedUnion('provider', [CommandAgent, OpenAiAgent]);
export type AgentConfig = z.output<typeof AgentConfig>;

