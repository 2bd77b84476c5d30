// The stdio transport of `steward mcp`: one JSON-RPC message per line, as the SDK's own
// StdioServerTransport, except that a line that is not one is answered as JSON-RPC says (-32700 for
// a line that is not JSON text, -32600 for JSON that is not a message) instead of being dropped,
// which leaves the client waiting for an answer that never comes.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../shared/errors';
import { jsonBodyText } from '../core/json-text';

/** A line longer than this is dropped whole (the SDK's limit too). */
const maxLineBytes = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer = Buffer.alloc(0);
  private readonly onData = (chunk: Buffer) => this.take(chunk);

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = Buffer.alloc(0);
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private take(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (let end = this.pending.indexOf(0x0a); end >= 0; end = this.pending.indexOf(0x0a)) {
      const line = this.pending.subarray(0, end > 0 && this.pending[end - 1] === 0x0d ? end - 1 : end);
      this.pending = this.pending.subarray(end + 1);
      if (line.length > 0) this.receive(line);
    }
    if (this.pending.length > maxLineBytes) {
      this.pending = Buffer.alloc(0);
      this.refuse(ErrorCode.InvalidRequest, `A message longer than ${maxLineBytes} bytes was dropped.`);
    }
  }

  private receive(line: Buffer): void {
    let value: unknown;
    try {
      value = JSON.parse(jsonBodyText(line));
    } catch (error) {
      const detail = error instanceof AppError ? error.message : `The line is not valid JSON: ${(error as Error).message}`;
      this.refuse(ErrorCode.ParseError, `Parse error: ${detail}`);
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.refuse(ErrorCode.InvalidRequest, 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.', typeof id === 'string' || typeof id === 'number' ? id : null);
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuse(code: number, message: string, id: string | number | null = null): void {
    // JSON-RPC answers a message it cannot read with id null; the type wants a request's id.
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
