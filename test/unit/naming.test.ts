// Where data lives by default, instance slugs and generated avatars.
import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir } from '../../src/main/core/data-dir';
import { generatedAvatarUrl, initials } from '../../src/main/core/services/avatar';
import { slugify } from '../../src/main/core/services/instances';

describe('defaultDataDir', () => {
  it('follows each OS convention', () => {
    expect(defaultDataDir('linux', {}, '/home/ada')).toBe('/home/ada/.local/share/steward');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/data' }, '/home/ada')).toBe('/data/steward');
    expect(defaultDataDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/Steward');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\Users\\ada')).toMatch(/Roaming.Steward$/);
  });

  it('gives --data-dir precedence over STEWARD_DATA_DIR', () => {
    expect(resolveDataDir('/flag', { STEWARD_DATA_DIR: '/env' })).toBe('/flag');
    expect(resolveDataDir(undefined, { STEWARD_DATA_DIR: '/env' })).toBe('/env');
  });
});

describe('slugify', () => {
  it.each([
    ['Home Server', 'home-server'],
    ['  Déjà Vu!! ', 'deja-vu'],
    ['日本', 'agent'],
    ['a'.repeat(60), 'a'.repeat(40)],
  ])('%j → %j', (name, slug) => expect(slugify(name)).toBe(slug));
});

describe('generated avatars', () => {
  it('show the initials, escaped, on a colour that depends on the name', () => {
    expect(initials('Home Server')).toBe('HS');
    expect(initials('steward')).toBe('S');
    expect(initials('  ')).toBe('?');
    const svg = Buffer.from(generatedAvatarUrl('<b> & co').split(',')[1], 'base64').toString();
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&#60;');
    expect(generatedAvatarUrl('Ada')).toBe(generatedAvatarUrl('Ada'));
  });
});
