// The pure half of the built-in agent's MCP client: what an MCP tool is called in the model's
// tool list (`<server>__<tool>`, within what Chat Completions accepts), and what a tool result
// reads as: its text, other content summarised in brackets, structured content as JSON.
import { capText } from './tools/tool';

const maxNameLength = 64;
const maxOutputChars = 30_000;

/** `<server>__<tool>` as `^[a-zA-Z0-9_-]{1,64}$`, not one of `taken` (which it joins). */
export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  const base = `${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, maxNameLength);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, maxNameLength - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

/** A content block of a tool result, as far as this reads it (the SDK's union, loosely). */
export interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Servers of the 2024-10-07 protocol answer this instead of content. */
  toolResult?: unknown;
}

const bytesOf = (base64: string) => Buffer.byteLength(base64, 'base64');

function describeContent(block: McpContent): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? 'unknown type'}, ${bytesOf(block.data ?? '')} bytes]`;
    case 'resource_link':
      return `[resource link ${block.name ?? ''} ${block.uri ?? ''}]`.replace(/\s+]/, ']');
    case 'resource': {
      const resource = block.resource ?? {};
      if (resource.text !== undefined) return `[resource ${resource.uri ?? ''}]\n${resource.text}`;
      return `[resource ${resource.uri ?? ''} ${resource.mimeType ?? 'unknown type'}, ${bytesOf(resource.blob ?? '')} bytes]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

/** What the model reads: text blocks joined, the others summarised; structured content when there is no text. */
export function mcpResultText(result: McpCallResult): string {
  if (result.content === undefined && result.toolResult !== undefined) return capText(JSON.stringify(result.toolResult), maxOutputChars);
  const blocks = result.content ?? [];
  const hasText = blocks.some((block) => block.type === 'text' && block.text);
  let text = blocks.map(describeContent).filter((part) => part !== '').join('\n');
  if (!hasText && result.structuredContent !== undefined) text = [text, JSON.stringify(result.structuredContent)].filter(Boolean).join('\n');
  return capText(text || '(no content)', maxOutputChars);
}
