// The systemd user unit that runs `steward serve` at login (Linux): pure text, written by
// service-manager.ts. Logs go to the journal (`journalctl --user -u steward`).
import path from 'node:path';
import { type ServiceSpec, serviceName } from './spec';

/** $XDG_CONFIG_HOME/systemd/user/steward.service (~/.config when XDG_CONFIG_HOME is unset). */
export function systemdUnitPath(env: NodeJS.ProcessEnv, home: string): string {
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'systemd', 'user', `${serviceName}.service`);
}

/**
 * One word of a unit's command line or assignment: `%` starts a specifier and `$` a variable
 * in ExecStart, so both are doubled; words with spaces, quotes or backslashes are double-quoted
 * with C escapes.
 */
export function systemdWord(word: string): string {
  if (/[\n\r]/.test(word)) throw new Error(`A service argument cannot contain a line break: ${JSON.stringify(word)}`);
  const escaped = word.replaceAll('%', '%%').replaceAll('$', () => '$$');
  if (escaped !== '' && !/[\s"'\\;]/.test(escaped)) return escaped;
  return `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

export function systemdUnit(spec: ServiceSpec): string {
  const command = [spec.node, spec.cli, ...spec.args].map(systemdWord).join(' ');
  return [
    '# Written by `steward service install`; `steward service uninstall` removes it.',
    '[Unit]',
    'Description=Steward: AI agents on schedules, webhooks and on demand',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${command}`,
    ...(spec.path ? [`Environment=${systemdWord(`PATH=${spec.path}`)}`] : []),
    'Restart=on-failure',
    'RestartSec=5',
    // Exit 2 is a usage error (the port is taken, a bad option): restarting cannot fix it.
    'RestartPreventExitStatus=2',
    // SIGTERM to the daemon alone: it stops its agents itself; leftovers get SIGKILL at the timeout.
    'KillMode=mixed',
    'TimeoutStopSec=30',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
