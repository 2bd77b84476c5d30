// Temp folders and plain HTTP requests for tests, apart from core.ts: the end-to-end files drive a
// daemon in another process and would otherwise load the whole core into each worker to get them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ApiResponse {
  status: number;
  headers: Headers;
  // The tests read fields of many shapes; each asserts what it expects.
  body: any;
  text: string;
}

export function tempDir(prefix = 'steward-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function request(url: string, init: RequestInit): Promise<ApiResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, headers: response.headers, body, text };
}
