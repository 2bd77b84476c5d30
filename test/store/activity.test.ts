// The activity log: line numbers per instance from 1, no gaps, no duplicates, across instances.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/main/core/store';
import { servicesFor, tempStore } from '../support/core';

let temp: ReturnType<typeof tempStore>;
let store: Store;
let dir: string;
beforeEach(() => {
  temp = tempStore();
  ({ store, dir } = temp);
});
afterEach(() => temp.remove());

describe('activity lines', () => {
  it('number each instance from 1 without gaps, interleaved with others', () => {
    const services = servicesFor(store, dir);
    const a = services.instances.ensureDefault();
    const b = services.instances.create({ name: 'B' });
    const line = (instanceId: string, n: number) =>
      store.transaction(() =>
        store.activity.append({ instanceId, runId: null, kind: 'system', label: '', displayText: `line ${n}`, raw: '{}', timestamp: new Date().toISOString() }),
      );
    const taken: Record<string, number[]> = { [a.id]: [], [b.id]: [] };
    for (let n = 0; n < 50; n++) {
      const instance = n % 3 === 0 ? b.id : a.id;
      taken[instance].push(line(instance, n).line);
    }
    for (const lines of Object.values(taken)) expect(lines).toEqual(lines.map((_, i) => i + 1));
  });

  it('a rolled-back append leaves no gap', () => {
    const services = servicesFor(store, dir);
    const { id } = services.instances.ensureDefault();
    const append = () => store.activity.append({ instanceId: id, runId: null, kind: 'system', label: '', displayText: 'x', raw: '{}', timestamp: new Date().toISOString() });
    expect(store.transaction(append).line).toBe(1);
    expect(() =>
      store.transaction(() => {
        append();
        throw new Error('abandon');
      }),
    ).toThrow('abandon');
    expect(store.transaction(append).line).toBe(2);
  });
});
