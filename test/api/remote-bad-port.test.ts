// A remote Steward on a port fetch refuses to dial (the browsers' blocked list: 1, 22, 6000 …): the
// check says so and what to do, instead of undici's "bad port".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.close();
});

describe('a remote on a blocked port', () => {
  it('is unreachable with a reason a person can act on', async () => {
    const { status, body } = await t.api('POST', '/api/remotes/check', { url: 'http://127.0.0.1:1', apiKey: 'stw_whatever' });
    expect(status).toBe(200);
    expect(body.check.state).toBe('unreachable');
    expect(body.check.error).toBe('The Steward at 127.0.0.1 is unreachable: fetch will not dial this port (one browsers block, such as 1, 22, 25 or 6000): serve the remote Steward on another port.');
  });
});
