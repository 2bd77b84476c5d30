// Launch at login on each OS: the XDG autostart entry on Linux (its path, its Exec quoting, written
// and removed as the setting changes), login items with the same arguments both ways on Windows.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyLaunchAtLogin, autostartEntry, autostartFile, execArgument, launchCommand, startedAtLogin } from '../../src/main/shell/launch-at-login';
import { tempDir } from '../support/core';

const packaged = { execPath: '/opt/Steward/steward', isPackaged: true, appPath: '/opt/Steward/resources/app.asar' };

describe('the autostart entry (Linux)', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, or ~/.config/autostart', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/home/me/.cfg' }, '/home/me')).toBe('/home/me/.cfg/autostart/steward.desktop');
    expect(autostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/steward.desktop');
    // The spec ignores a relative XDG_CONFIG_HOME.
    expect(autostartFile({ XDG_CONFIG_HOME: 'cfg' }, '/home/me')).toBe('/home/me/.config/autostart/steward.desktop');
  });

  it('starts the installed app, the AppImage file itself, or Electron with the project, hidden in the tray', () => {
    expect(autostartEntry(launchCommand(packaged))).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Version=1.0',
        'Name=Steward',
        'Comment=Runs your AI agents on schedules, webhooks and on demand',
        'Exec=/opt/Steward/steward --hidden',
        'Icon=steward',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    );
    expect(launchCommand({ ...packaged, execPath: '/tmp/.mount_StewaXyz/steward', appImage: '/home/me/Apps/Steward-0.1.0.AppImage' })).toEqual(['/home/me/Apps/Steward-0.1.0.AppImage']);
    expect(launchCommand({ execPath: '/w/node_modules/electron/dist/electron', isPackaged: false, appPath: '/w' })).toEqual(['/w/node_modules/electron/dist/electron', '/w']);
  });

  it('quotes Exec arguments as the Desktop Entry spec says', () => {
    expect(execArgument('/opt/Steward/steward')).toBe('/opt/Steward/steward');
    expect(execArgument('/home/me/My Apps/Steward.AppImage')).toBe('"/home/me/My Apps/Steward.AppImage"');
    // Inside quotes: \" \` \$ \\, then each backslash doubled again by the string escaping.
    expect(execArgument('/a "b" $c `d` \\e')).toBe('"/a \\\\"b\\\\" \\\\$c \\\\`d\\\\` \\\\\\\\e"');
    expect(execArgument('/opt/100%/steward')).toBe('/opt/100%%/steward');
  });

  it('is written when the setting is on and removed when it is off', () => {
    const file = path.join(tempDir(), 'autostart', 'steward.desktop');
    const loginItems = { setLoginItemSettings: () => expect.unreachable('no login items on Linux') };
    applyLaunchAtLogin(true, 'linux', packaged, loginItems, file);
    expect(fs.readFileSync(file, 'utf8')).toContain('Exec=/opt/Steward/steward --hidden\n');
    applyLaunchAtLogin(false, 'linux', packaged, loginItems, file);
    expect(fs.existsSync(file)).toBe(false);
    applyLaunchAtLogin(false, 'linux', packaged, loginItems, file);
  });
});

describe('login items (macOS, Windows)', () => {
  it('pass the same executable and arguments on and off on Windows, and nothing else on macOS', () => {
    const calls: unknown[] = [];
    const loginItems = { setLoginItemSettings: (settings: unknown) => calls.push(settings) };
    const windows = { execPath: 'C:\\Program Files\\Steward\\Steward.exe', isPackaged: true, appPath: 'C:\\Program Files\\Steward\\resources\\app.asar' };
    applyLaunchAtLogin(true, 'win32', windows, loginItems, '/nonexistent');
    applyLaunchAtLogin(false, 'win32', windows, loginItems, '/nonexistent');
    applyLaunchAtLogin(true, 'darwin', packaged, loginItems, '/nonexistent');
    expect(calls).toEqual([
      { openAtLogin: true, path: 'C:\\Program Files\\Steward\\Steward.exe', args: ['--hidden'] },
      { openAtLogin: false, path: 'C:\\Program Files\\Steward\\Steward.exe', args: ['--hidden'] },
      { openAtLogin: true },
    ]);
  });

  it('tell a start at login by the flag, or on macOS by its own record', () => {
    expect(startedAtLogin(['/opt/Steward/steward', '--hidden'], () => false, 'linux')).toBe(true);
    expect(startedAtLogin(['/opt/Steward/steward'], () => true, 'linux')).toBe(false);
    expect(startedAtLogin(['/Applications/Steward.app/Contents/MacOS/Steward'], () => true, 'darwin')).toBe(true);
  });
});
