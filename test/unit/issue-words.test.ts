// Validation problems in plain words, as the API, the CLI and the UI say them ("Name is required").
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AutomationCreate, WebhookCreate, operations } from '../../src/shared/contract';
import { fieldLabel, issueSentence } from '../../src/shared/issue-words';
import { parseInput } from '../../src/shared/parse-input';
import { AppError } from '../../src/shared/errors';

const refusal = (operationName: 'automations.create' | 'webhooks.create', body: unknown): AppError => {
  try {
    parseInput(operations[operationName], { body });
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('accepted');
};

describe('a field path in words', () => {
  it('reads as a person would say it', () => {
    expect(fieldLabel(['name'])).toBe('Name');
    expect(fieldLabel(['promptTemplate'])).toBe('Prompt template');
    expect(fieldLabel(['sandbox', 'network', 1])).toBe('Sandbox network, entry 2');
    expect(fieldLabel(['instanceId'])).toBe('Instance ID');
    expect(fieldLabel(['budget', 'usdPerDay'])).toBe('Budget USD per day');
    expect(fieldLabel(['agent', 'env', '1BAD'])).toBe('Agent env "1BAD"');
    expect(fieldLabel(['headers', 'X-Api_Key'])).toBe('Headers "X-Api_Key"');
  });
});

describe('the API refuses in plain words', () => {
  const automation = { name: 'Digest', prompt: 'Sum up.', cronExpression: '0 9 * * *' };
  it('says a field is required, keeping code and field machine-readable', () => {
    const empty = refusal('automations.create', { ...automation, name: '  ' });
    expect(empty.toBody().error).toEqual({ code: 'invalid_field', field: 'name', message: 'Name is required.' });
    const missing = refusal('automations.create', { name: 'x', cronExpression: '* * * * *' });
    expect(missing.toBody().error).toEqual({ code: 'missing_field', field: 'prompt', message: 'Prompt is required.' });
  });
  it('turns the schemas’ predicates and zod’s defaults into one voice', () => {
    expect(refusal('automations.create', { ...automation, name: 'x'.repeat(201) }).message).toBe('Name must be at most 200 characters.');
    expect(refusal('automations.create', { ...automation, name: null }).message).toBe('Name must be text, not null.');
    expect(refusal('automations.create', { ...automation, notify: 'sometimes' }).message).toMatch(/^Notify must be one of "default", /);
    expect(refusal('automations.create', { ...automation, retry: { attempts: 9 } }).message).toBe('Retry attempts must be at most 5.');
    expect(refusal('webhooks.create', { name: 'Hook', promptTemplate: '' }).message).toMatch(/prompt template/i);
    // A schema's own predicate is kept, zod's default is said again in the same voice.
    expect(issueSentence(z.array(z.string()).min(1, 'must name at least one instance').safeParse([]).error!.issues[0], 'Senders')).toBe('Senders must name at least one instance.');
    expect(issueSentence(z.array(z.string()).min(1).safeParse([]).error!.issues[0], 'Senders')).toBe('Senders must have at least one entry.');
    expect(issueSentence(z.int().min(1).safeParse(0).error!.issues[0], 'Limit')).toBe('Limit must be at least 1.');
  });
  it('never says "field: must …"', () => {
    for (const body of [{ ...automation, name: '' }, { ...automation, prompt: '' }, { ...automation, timezone: 5 }]) {
      expect(refusal('automations.create', body).message).not.toMatch(/^\w+(\.\w+)*: /);
    }
  });
  it('keeps the schemas usable on their own', () => {
    expect(AutomationCreate.safeParse(automation).success).toBe(true);
    expect(WebhookCreate.safeParse({ name: 'Hook' }).success).toBe(true);
    expect(z.string().safeParse('x').success).toBe(true);
  });
});
