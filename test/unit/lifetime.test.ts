// The core's lifetime: parts stop in reverse order of starting, each once; a start that fails
// stops what had started before it and rethrows; a part that fails to stop does not keep the
// others running.
import { describe, expect, it } from 'vitest';
import { createLifetime } from '../../src/main/core/lifetime';
import { silentLogger } from '../../src/main/core/logger';

describe('a lifetime', () => {
  it('stops in reverse, once, whatever fails to stop', async () => {
    const life = createLifetime(silentLogger());
    const stopped: string[] = [];
    life.hold('lock', () => stopped.push('lock'));
    await life.start('store', () => () => stopped.push('store'));
    await life.start('http', async () => () => {
      stopped.push('http');
      throw new Error('stuck');
    });
    await life.start('runner', () => async () => void stopped.push('runner'));
    await Promise.all([life.stop(), life.stop()]);
    expect(stopped).toEqual(['runner', 'http', 'store', 'lock']);
  });

  it('stops what started when a later part fails to start', async () => {
    const life = createLifetime(silentLogger());
    const stopped: string[] = [];
    await life.start('store', () => () => stopped.push('store'));
    await life.start('runner', () => () => stopped.push('runner'));
    await expect(life.start('http', () => Promise.reject(new Error('listen EADDRINUSE')))).rejects.toThrow('EADDRINUSE');
    expect(stopped).toEqual(['runner', 'store']);
  });
});
