// How the git source reads a remote and holds git to the address checked: the URL forms, the
// pinned address for https, the rewritten URL for git://, the credential only over https, and
// no password in the words it shows.
import { describe, expect, it } from 'vitest';
import { withoutPassword } from '../../src/main/core/sources/kinds/git-cli';
import { accessFor, isRemote, parseRemote } from '../../src/main/core/sources/kinds/git-remote';

const checked: { host: string; port: number; named: { host: string; port: number } }[] = [];
const tools = (address: string) => ({
  reach: async (host: string, port: number, named: { host: string; port: number }) => {
    checked.push({ host, port, named });
    return address;
  },
  secret: (name: string) => (name === 'token' ? 'ghp_abc' : name === 'pair' ? 'me:pw' : ''),
});

describe('a remote', () => {
  it('is a URL or user@host:path; a folder is not', () => {
    for (const remote of ['https://example.com/a.git', 'ssh://git@example.com:2222/a.git', 'git://example.com/a', 'file:///srv/a.git', 'git@github.com:org/a.git']) expect(isRemote(remote), remote).toBe(true);
    for (const folder of ['/srv/a.git', '~/src/app', 'C:\\src\\app', 'relative/path']) expect(isRemote(folder), folder).toBe(false);
  });

  it('is read with its default port, and shown without its password', () => {
    expect(parseRemote('https://example.com/a.git')).toMatchObject({ scheme: 'https', host: 'example.com', port: 443 });
    expect(parseRemote('git://[::1]:9999/a')).toMatchObject({ scheme: 'git', host: '::1', port: 9999 });
    expect(parseRemote('git@github.com:org/a.git')).toMatchObject({ scheme: 'ssh', host: 'github.com', port: 22 });
    expect(parseRemote('https://me:hunter2@example.com/a.git').where).toBe('https://me:…@example.com/a.git');
    expect(() => parseRemote('ftp://example.com/a')).toThrow('Steward fetches https://, ssh://, git:// and file:// remotes, not ftp://');
    expect(withoutPassword("fatal: unable to access 'https://me:hunter2@example.com/a.git/': 403")).toBe("fatal: unable to access 'https://…@example.com/a.git/': 403");
  });
});

describe('reaching a remote', () => {
  it('checks the host as named and pins https to the address checked, redirects off, the token as a header', async () => {
    checked.length = 0;
    const access = await accessFor(parseRemote('https://example.com/a.git'), 'token', tools('93.184.216.34'));
    expect(checked).toEqual([{ host: 'example.com', port: 443, named: { host: 'example.com', port: 443 } }]);
    expect(access.url).toBe('https://example.com/a.git');
    const config = Object.fromEntries(access.config);
    expect(config['http.curloptResolve']).toBe('example.com:443:93.184.216.34');
    expect(config['http.followRedirects']).toBe('false');
    expect(config['http.extraHeader']).toBe(`Authorization: Basic ${Buffer.from('x-access-token:ghp_abc').toString('base64')}`);
    const pair = Object.fromEntries((await accessFor(parseRemote('https://example.com/a.git'), 'pair', tools('93.184.216.34'))).config);
    expect(pair['http.extraHeader']).toBe(`Authorization: Basic ${Buffer.from('me:pw').toString('base64')}`);
  });

  it('dials git:// at the address checked, brackets for IPv6', async () => {
    expect((await accessFor(parseRemote('git://example.com:9418/a.git'), undefined, tools('10.0.0.7'))).url).toBe('git://10.0.0.7:9418/a.git');
    expect((await accessFor(parseRemote('git://example.com/a.git'), undefined, tools('2001:db8::1'))).url).toBe('git://[2001:db8::1]/a.git');
  });

  it('sends a credential only over https', async () => {
    for (const url of ['http://example.com/a.git', 'git://example.com/a.git', 'ssh://example.com/a.git']) {
      await expect(accessFor(parseRemote(url), 'token', tools('93.184.216.34')), url).rejects.toThrow('A credential is sent only to an https:// remote');
    }
  });

  it('does not reach a host the rules refuse', async () => {
    const refusing = { ...tools(''), reach: () => Promise.reject(new Error('Steward will not connect to internal:443: it resolves to 10.0.0.1: …')) };
    await expect(accessFor(parseRemote('https://internal/a.git'), undefined, refusing)).rejects.toThrow('Steward will not connect to internal:443');
  });
});
