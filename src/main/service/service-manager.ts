// `steward service install|uninstall|status`: writes or removes the systemd user unit (Linux) or
// the launchd agent (macOS) and asks systemctl or launchctl to act on it. Where they cannot be
// reached (no user session bus, a container), it says what to run instead.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchdLabel, launchdLogPath, launchdPlist, launchdPlistPath } from './launchd';
import { type ServiceSpec, serviceName } from './spec';
import { systemdUnit, systemdUnitPath } from './systemd';

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The machine the commands act on; tests pass a fake one. */
export interface ServiceHost {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  uid: number;
  run(command: string, args: string[]): CommandResult;
  print(text: string): void;
}

export class ServiceError extends Error {}

export function systemHost(): ServiceHost {
  return {
    platform: process.platform,
    env: process.env,
    home: os.homedir(),
    uid: process.getuid?.() ?? 0,
    run(command, args) {
      const result = spawnSync(command, args, { encoding: 'utf8' });
      return { status: result.error ? null : result.status, stdout: result.stdout ?? '', stderr: result.error ? result.error.message : (result.stderr ?? '') };
    },
    print: (text) => process.stdout.write(`${text}\n`),
  };
}

function unsupported(host: ServiceHost): never {
  throw new ServiceError(`steward service knows systemd (Linux) and launchd (macOS), not ${host.platform}. Run \`steward serve\` with your system's service manager instead.`);
}

const systemctl = (host: ServiceHost, ...args: string[]) => host.run('systemctl', ['--user', ...args]);
const systemctlUsable = (host: ServiceHost) => systemctl(host, 'show-environment').status === 0;
const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

function installSystemd(host: ServiceHost, spec: ServiceSpec): void {
  const file = systemdUnitPath(host.env, host.home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, systemdUnit(spec), { mode: 0o644 });
  host.print(`Wrote ${file}`);
  const steps = `systemctl --user daemon-reload && systemctl --user enable --now ${serviceName}`;
  if (!systemctlUsable(host)) {
    host.print(`systemctl --user is not reachable here (no user session bus). In a login session, run:\n  ${steps}`);
    return;
  }
  const wasActive = systemctl(host, 'is-active', serviceName).status === 0;
  for (const args of [['daemon-reload'], ['enable', '--now', serviceName], ...(wasActive ? [['restart', serviceName]] : [])]) {
    const result = systemctl(host, ...args);
    if (result.status !== 0) throw new ServiceError(`systemctl --user ${args.join(' ')} failed: ${firstLine(result.stderr)}`);
  }
  host.print(
    [
      `Steward ${wasActive ? 'restarted' : 'started'}; it starts at every login. Logs: journalctl --user -u ${serviceName} -f`,
      `To keep it running without a login session (a server): sudo loginctl enable-linger ${host.env.USER ?? '$USER'}`,
    ].join('\n'),
  );
}

function uninstallSystemd(host: ServiceHost): void {
  const file = systemdUnitPath(host.env, host.home);
  if (!fs.existsSync(file)) {
    host.print(`No service installed (${file} does not exist).`);
    return;
  }
  const usable = systemctlUsable(host);
  if (usable) systemctl(host, 'disable', '--now', serviceName);
  fs.rmSync(file);
  if (usable) systemctl(host, 'daemon-reload');
  host.print(usable ? `Stopped and removed ${file}` : `Removed ${file}. systemctl --user is not reachable here; if the service still runs, run:\n  systemctl --user disable --now ${serviceName}`);
}

function statusSystemd(host: ServiceHost): void {
  const file = systemdUnitPath(host.env, host.home);
  const installed = fs.existsSync(file);
  host.print(`Service: systemd user unit ${file}`);
  host.print(`Installed: ${installed ? 'yes' : 'no'}`);
  if (!systemctlUsable(host)) {
    host.print('Active: unknown (systemctl --user is not reachable here)');
    return;
  }
  host.print(`Enabled: ${firstLine(systemctl(host, 'is-enabled', serviceName).stdout) || 'no'}`);
  host.print(`Active: ${firstLine(systemctl(host, 'is-active', serviceName).stdout) || 'unknown'}`);
}

const launchctlTarget = (host: ServiceHost) => `gui/${host.uid}`;

function installLaunchd(host: ServiceHost, spec: ServiceSpec): void {
  const file = launchdPlistPath(host.home);
  const log = launchdLogPath(host.home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.mkdirSync(path.dirname(log), { recursive: true });
  fs.writeFileSync(file, launchdPlist(spec, log), { mode: 0o644 });
  host.print(`Wrote ${file}`);
  // A reinstall replaces the loaded agent; the first install has none to remove.
  host.run('launchctl', ['bootout', `${launchctlTarget(host)}/${launchdLabel}`]);
  const loaded = host.run('launchctl', ['bootstrap', launchctlTarget(host), file]);
  if (loaded.status !== 0) throw new ServiceError(`launchctl bootstrap failed: ${firstLine(loaded.stderr)}. Try: launchctl bootstrap ${launchctlTarget(host)} ${file}`);
  host.print(`Steward started; it starts at every login. Logs: ${log}`);
}

function uninstallLaunchd(host: ServiceHost): void {
  const file = launchdPlistPath(host.home);
  if (!fs.existsSync(file)) {
    host.print(`No service installed (${file} does not exist).`);
    return;
  }
  host.run('launchctl', ['bootout', `${launchctlTarget(host)}/${launchdLabel}`]);
  fs.rmSync(file);
  host.print(`Stopped and removed ${file}`);
}

function statusLaunchd(host: ServiceHost): void {
  const file = launchdPlistPath(host.home);
  host.print(`Service: launchd agent ${file}`);
  host.print(`Installed: ${fs.existsSync(file) ? 'yes' : 'no'}`);
  const printed = host.run('launchctl', ['print', `${launchctlTarget(host)}/${launchdLabel}`]);
  const state = /^\s*state = (.+)$/m.exec(printed.stdout)?.[1];
  host.print(`Active: ${printed.status === 0 ? (state ?? 'loaded') : 'not loaded'}`);
}

export function installService(host: ServiceHost, spec: ServiceSpec): void {
  if (host.platform === 'linux') return installSystemd(host, spec);
  if (host.platform === 'darwin') return installLaunchd(host, spec);
  unsupported(host);
}

export function uninstallService(host: ServiceHost): void {
  if (host.platform === 'linux') return uninstallSystemd(host);
  if (host.platform === 'darwin') return uninstallLaunchd(host);
  unsupported(host);
}

export function serviceStatus(host: ServiceHost): void {
  if (host.platform === 'linux') return statusSystemd(host);
  if (host.platform === 'darwin') return statusLaunchd(host);
  unsupported(host);
}
