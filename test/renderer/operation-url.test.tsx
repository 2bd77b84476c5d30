// @vitest-environment jsdom
// The renderer's URLs are filled by the shared fillPath: a missing path parameter is refused
// with the API's own error before anything is sent, never fetched as /api/runs/.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, httpClient, urlFor } from '../../src/renderer/src/lib/api';

describe('urlFor', () => {
  it('fills the path, encoded, and adds the query', () => {
    expect(urlFor('runs.get', { params: { id: 'run 1' }, query: { x: 1 } })).toBe('/api/runs/run%201?x=1');
  });

  it('refuses a missing parameter as missing_field, without a request', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    try {
      const refused = await httpClient('http://127.0.0.1:9').call('runs.get', {}).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ code: 'missing_field', field: 'id' });
      expect(fetch).not.toHaveBeenCalled();
    } finally {
      fetch.mockRestore();
    }
  });
});
