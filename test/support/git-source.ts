// Driving an automation with a git trigger through the API, for the git source's tests: making it,
// waiting for its source to listen or fail, its runs and fires oldest first, the event in a prompt.
import { expect } from 'vitest';
import type { Fire, Run, SourceHealth } from '../../src/shared/contract';
import type { TestCore } from './core';
import { waitFor } from './wait';

/** A short backoff: a failing source is retried within a second. */
export const fast = (failures: number) => Math.min(200 * failures, 1000);

export async function createGit(t: TestCore, git: Record<string, unknown>, prompt = 'A push: {{event}}'): Promise<string> {
  const response = await t.api('POST', '/api/automations', { name: 'On push', prompt, trigger: { git } });
  expect(response.status, response.text).toBe(201);
  return response.body.automation.id as string;
}

export const healthOf = async (t: TestCore, id: string): Promise<SourceHealth> => (await t.api('GET', `/api/automations/${id}`)).body.automation.source;
export const runsOf = async (t: TestCore, id: string): Promise<Run[]> => ((await t.api('GET', `/api/runs?source=automation&sourceId=${id}`)).body.runs as Run[]).reverse();
export const firesOf = async (t: TestCore, id: string): Promise<Fire[]> => ((await t.api('GET', `/api/automations/${id}/fires`)).body.fires as Fire[]).reverse();

export const listening = (t: TestCore, id: string) => waitFor(() => healthOf(t, id), { what: 'the git source to listen', until: (health) => health.state === 'listening' });
export const failing = (t: TestCore, id: string, timeoutMs = 15_000) => waitFor(() => healthOf(t, id), { what: 'the git source to fail', timeoutMs, until: (health) => health.state === 'failing' });
export const runCount = (t: TestCore, id: string, count: number, timeoutMs = 15_000) =>
  waitFor(() => runsOf(t, id), { what: `${count} runs`, timeoutMs, until: (runs) => runs.length >= count });

/** The event as the prompt holds it ({{event}} fenced as JSON). */
export function eventIn(prompt: string): Record<string, any> {
  const start = prompt.indexOf('{\n');
  const end = prompt.lastIndexOf('\n}');
  return JSON.parse(prompt.slice(start, end + 2));
}

