// fillPath: the one way an operation's path gets its parameters, in the renderer, the CLI and a
// call forwarded to a remote Steward (the renderer's use: test/renderer/operation-url.test.tsx).
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/shared/contract';
import { fillPath } from '../../src/shared/operation-path';

describe('fillPath', () => {
  it('fills each parameter, encoded', () => {
    expect(fillPath(operations['runs.get'], { id: 'run_01' })).toBe('/api/runs/run_01');
    expect(fillPath(operations['secrets.put'], { name: 'a/b c?' })).toBe('/api/secrets/a%2Fb%20c%3F');
    expect(fillPath(operations['remotes.list'])).toBe('/api/remotes');
  });

  it('refuses a missing or empty parameter, naming it, instead of sending /undefined or an empty segment', () => {
    for (const params of [{}, { id: undefined }, { id: '' }, { id: null }, { id: { nested: true } }]) {
      expect(() => fillPath(operations['runs.get'], params)).toThrow(expect.objectContaining({ code: 'missing_field', field: 'id', message: expect.stringContaining('runs.get needs its path parameter “id”') }));
    }
  });
});
