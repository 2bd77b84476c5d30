// The built-in agent: a tool-calling loop over an OpenAI-compatible Chat Completions endpoint
// (Ollama by default), with the official `openai` client. Each step streams one completion: its
// text reaches the activity log line by line as it arrives, its tool calls run in the workspace,
// and their results go back to the model, until it answers without tools or `maxSteps` is spent.
// The tools of the run's MCP servers (mcp-tools.ts) join its own at the start of the run.
import type { ChatCompletionMessageParam, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { type AgentConfig, type McpServerConfig, mergeMcpServers, openAiToolGroups } from '../../../shared/contract';
import type { Caller } from '../caller';
import type { Dispatch } from '../operation-call';
import { agentEnvironment } from './agent-environment';
import { type ErrorHint, classOfStatus, hintOf } from './error-class';
import type { AgentEvent, AgentExit, AgentLaunch, AgentProcess } from './events';
import { createMcpTools } from './mcp-tools';
import { describeUsage, finished } from './presets/common';
import { type Tool, ToolError, toolsFor } from './tools';

type OpenAiAgent = Extract<AgentConfig, { provider: 'openai' }>;

const defaultMaxSteps = 25;

export interface OpenAiLaunch extends AgentLaunch {
  /** The API key from the secret the config names; Ollama needs none. */
  apiKey: string | undefined;
  /** Steward's operations, called as `caller` (the run). */
  dispatch: Dispatch;
  caller: Caller;
  /** The settings' MCP servers; the instance's own (in its agent config) are added here, replacing any of the same name. */
  mcpServers?: readonly McpServerConfig[];
  /** A stored secret's value (an MCP server's headers), read when the run starts. */
  revealSecret?: (name: string) => string | undefined;
  /** How long an MCP server may take to start and list its tools (default 20 s). */
  mcpStartTimeoutMs?: number;
}

function systemPrompt(workspaceDir: string, tools: Tool[]): string {
  return [
    'You are an agent run by Steward, unattended: no human will answer questions during this run.',
    `Your workspace folder is ${workspaceDir}; file paths are relative to it.`,
    tools.length > 0 ? `Use the tools (${tools.map((tool) => tool.name).join(', ')}) to do the task, then say briefly what you did.` : 'Answer the task.',
  ].join('\n');
}

/** Streamed text as activity lines: each finished line as soon as it ends. */
function lineSplitter(emit: (line: string) => void) {
  let pending = '';
  return {
    add(text: string) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) if (line.trim()) emit(line);
    },
    end() {
      if (pending.trim()) emit(pending);
      pending = '';
    },
  };
}

export function startOpenAiAgent(agent: OpenAiAgent, launch: OpenAiLaunch): AgentProcess {
  const abort = new AbortController();
  const tools = toolsFor(agent.tools ?? openAiToolGroups, launch.dispatch, launch.caller);
  // Its shell commands get the agent's environment, as a CLI agent does: never Steward's own.
  const env = { ...agentEnvironment({ envAllow: launch.envAllow ?? [] }), ...launch.env, PWD: launch.workspaceDir };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const mcpServers = mergeMcpServers(launch.mcpServers ?? [], agent.mcpServers);
  const mcp = mcpServers.some((server) => server.enabled !== false)
    ? createMcpTools({
        servers: mcpServers,
        workspaceDir: launch.workspaceDir,
        revealSecret: launch.revealSecret ?? (() => undefined),
        signal: abort.signal,
        onEvent: (event) => launch.onEvent(event),
        reservedNames: [...byName.keys()],
        startTimeoutMs: launch.mcpStartTimeoutMs,
        sandbox: launch.sandbox,
        envAllow: launch.envAllow ?? [],
      })
    : undefined;
  const maxSteps = agent.maxSteps ?? defaultMaxSteps;
  const emit = (event: AgentEvent) => launch.onEvent(event);

  async function callTool(call: ChatCompletionMessageFunctionToolCall): Promise<string> {
    let args: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(call.function.arguments || '{}');
      args = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      emit({ type: 'tool_call', name: call.function.name, input: call.function.arguments, raw: call });
      return fail(`The arguments are not valid JSON: ${call.function.arguments}`);
    }
    emit({ type: 'tool_call', name: call.function.name, input: args, raw: call });
    const tool = byName.get(call.function.name);
    if (!tool) return fail(`There is no tool ${call.function.name}; the tools are ${[...byName.keys()].join(', ')}.`);
    if (tool.acts && launch.permissions === 'ask') {
      try {
        const verdict = (await launch.dispatch('approvals.permission', { body: { tool_name: tool.name, input: args } })) as { behavior: 'allow' } | { behavior: 'deny'; message: string };
        if (verdict.behavior === 'deny') return fail(`Not allowed: ${verdict.message}`);
      } catch (error) {
        return fail(`Not allowed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    try {
      const output = await tool.run(args, { workspaceDir: launch.workspaceDir, env, signal: abort.signal, sandbox: launch.sandbox });
      emit({ type: 'tool_result', output, isError: false, raw: { toolCallId: call.id, output } });
      return output;
    } catch (error) {
      const message = error instanceof ToolError || error instanceof Error ? error.message : String(error);
      return fail(message);
    }

    function fail(message: string): string {
      emit({ type: 'tool_result', output: message, isError: true, raw: { toolCallId: call.id, error: message } });
      return `Error: ${message}`;
    }
  }

  async function loop(): Promise<AgentExit> {
    // Loaded on first use: a daemon that never runs the built-in agent starts faster and smaller without it.
    const { default: OpenAiClient } = await import('openai');
    const client = new OpenAiClient({ baseURL: agent.baseUrl, apiKey: launch.apiKey ?? 'not-needed', maxRetries: 2, timeout: 10 * 60 * 1000 });
    // It has no sessions of its own: a continued thread is its earlier turns, sent again.
    const history = launch.history ?? [];
    const usage = { input: 0, output: 0, reported: false };
    const context = history.length > 0 ? `, continuing the thread: ${history.length} earlier ${history.length === 1 ? 'message' : 'messages'}` : '';
    emit({ type: 'system', text: `OpenAI-compatible agent started (${agent.model} at ${agent.baseUrl}${context})`, raw: { model: agent.model, baseUrl: agent.baseUrl, historyMessages: history.length } });
    for (const tool of (await mcp?.start()) ?? []) {
      tools.push(tool);
      byName.set(tool.name, tool);
    }
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemPrompt(launch.workspaceDir, tools) },
      ...history.map((turn): ChatCompletionMessageParam => ({ role: turn.role, content: turn.content })),
      { role: 'user', content: launch.prompt },
    ];
    for (let step = 1; step <= maxSteps; step++) {
      const stream = await client.chat.completions.create(
        {
          model: agent.model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(tools.length > 0 ? { tools: tools.map((tool) => ({ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } })) } : {}),
        },
        { signal: abort.signal },
      );
      let text = '';
      const calls: ChatCompletionMessageFunctionToolCall[] = [];
      const lines = lineSplitter((line) => emit({ type: 'assistant_chunk', text: line, raw: { step, line } }));
      for await (const chunk of stream) {
        if (chunk.usage) {
          usage.input += chunk.usage.prompt_tokens;
          usage.output += chunk.usage.completion_tokens;
          usage.reported = true;
          emit({ type: 'usage', inputTokens: usage.input, outputTokens: usage.output, raw: chunk.usage });
        }
        const delta = chunk.choices[0]?.delta;
        if (delta?.content) {
          text += delta.content;
          lines.add(delta.content);
        }
        for (const piece of delta?.tool_calls ?? []) {
          const call = (calls[piece.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
          if (piece.id) call.id = piece.id;
          if (piece.function?.name) call.function.name += piece.function.name;
          if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
        }
      }
      lines.end();
      if (text.trim()) emit({ type: 'assistant', text, raw: { step }, streamed: true });
      const made = calls.filter(Boolean);
      messages.push({ role: 'assistant', content: text || null, ...(made.length > 0 ? { tool_calls: made } : {}) });
      if (made.length === 0) {
        const figures = describeUsage(usage.reported ? { inputTokens: usage.input, outputTokens: usage.output } : {});
        emit({ type: 'system', text: finished('OpenAI-compatible agent', [figures, `${step} ${step === 1 ? 'step' : 'steps'}`].filter(Boolean).join(', ')), raw: { usage, steps: step } });
        return { code: 0, signal: null, stderr: '' };
      }
      for (const call of made) {
        const content = await callTool(call);
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      }
    }
    return { code: 1, signal: null, stderr: '', failure: `The agent used all its ${maxSteps} steps without finishing; raise maxSteps or split the task.` };
  }

  const exited = loop()
    .catch(async (error: unknown): Promise<AgentExit> => {
      if (abort.signal.aborted) return { code: null, signal: 'SIGTERM', stderr: '' };
      const { default: OpenAiClient } = await import('openai');
      return { code: 1, signal: null, stderr: '', failure: describeFailure(error, agent, OpenAiClient), hint: hintOfFailure(error, OpenAiClient) };
    })
    // However it ended (done, failed, cancelled, timed out), no MCP server outlives the run.
    .then(async (exit) => {
      await mcp?.close().catch(() => undefined);
      return exit;
    });
  return { exited, kill: () => abort.abort() };
}

/** Why the model server refused, as the CLI presets classify it: by HTTP status, a usage limit by its words. */
function hintOfFailure(error: unknown, OpenAI: typeof import('openai').default): ErrorHint | undefined {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { errorClass: 'timeout' };
  if (error instanceof OpenAI.APIConnectionError) return { errorClass: 'network' };
  const byText = hintOf(error instanceof Error ? error.message : String(error));
  if (byText?.errorClass === 'usage_limit') return byText; // OpenAI's insufficient_quota is a 429 too
  const byStatus = error instanceof OpenAI.APIError ? classOfStatus(error.status) : undefined;
  return byStatus ? { errorClass: byStatus } : byText;
}

function describeFailure(error: unknown, agent: OpenAiAgent, OpenAI: typeof import('openai').default): string {
  if (error instanceof OpenAI.APIConnectionError) return `Could not reach the model server at ${agent.baseUrl}: ${error.cause instanceof Error ? error.cause.message : error.message}`;
  if (error instanceof OpenAI.AuthenticationError) return `The model server at ${agent.baseUrl} refused the API key (401); check the secret named in apiKeyRef.`;
  if (error instanceof OpenAI.NotFoundError) return `The model server at ${agent.baseUrl} answered 404: is the model "${agent.model}" available there?`;
  if (error instanceof OpenAI.APIError) return `The model server at ${agent.baseUrl} answered ${error.status ?? 'with an error'}: ${error.message}`;
  return `The agent failed: ${error instanceof Error ? error.message : String(error)}`;
}
