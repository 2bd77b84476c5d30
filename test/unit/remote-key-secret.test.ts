// The secret `steward remotes add` keeps a remote's key in: `remote-` and a slug of its name, always
// a valid secret name.
import { describe, expect, it } from 'vitest';
import { SecretName } from '../../src/shared/contract';
import { keySecretName } from '../../src/main/cli/remotes';

describe('keySecretName', () => {
  it('is remote- and the name in lower case, words joined by dashes', () => {
    expect(keySecretName('Build server')).toBe('remote-build-server');
    expect(keySecretName('  Laptop (home) #2 ')).toBe('remote-laptop-home-2');
    expect(keySecretName('Zürich Büro')).toBe('remote-zurich-buro');
  });

  it('gives a name without Latin letters or digits one of its own, and keeps long names short', () => {
    const han = keySecretName('服务器');
    expect(han).toMatch(/^remote-[0-9a-f]{12}$/);
    expect(keySecretName('服务器')).toBe(han);
    expect(keySecretName('计算机')).not.toBe(han);
    const long = keySecretName(`${'a'.repeat(59)} b${'c'.repeat(100)}`);
    expect(long).toBe(`remote-${'a'.repeat(59)}`);
    for (const name of [han, long, keySecretName('x'.repeat(100))]) expect(SecretName.safeParse(name).success).toBe(true);
  });
});
