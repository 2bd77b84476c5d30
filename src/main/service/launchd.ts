// The launchd agent that runs `steward serve` at login (macOS): pure text, written by
// service-manager.ts. launchd restarts it when it fails and appends its output to a log file.
import path from 'node:path';
import type { ServiceSpec } from './spec';

export const launchdLabel = 'local.steward';

export function launchdPlistPath(home: string): string {
  return path.join(home, 'Library', 'LaunchAgents', `${launchdLabel}.plist`);
}

export function launchdLogPath(home: string): string {
  return path.join(home, 'Library', 'Logs', 'Steward', 'steward.log');
}

const xml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const string = (text: string) => `<string>${xml(text)}</string>`;

export function launchdPlist(spec: ServiceSpec, logPath: string): string {
  const args = [spec.node, spec.cli, ...spec.args].map((arg) => `    ${string(arg)}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `steward service install`; `steward service uninstall` removes it. -->',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${string(launchdLabel)}`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args,
    '  </array>',
    ...(spec.path ? ['  <key>EnvironmentVariables</key>', '  <dict>', `    <key>PATH</key>${string(spec.path)}`, '  </dict>'] : []),
    '  <key>RunAtLoad</key><true/>',
    // Restart after a crash, not after a clean stop.
    '  <key>KeepAlive</key>',
    '  <dict><key>SuccessfulExit</key><false/></dict>',
    '  <key>ThrottleInterval</key><integer>10</integer>',
    '  <key>ProcessType</key><string>Background</string>',
    `  <key>StandardOutPath</key>${string(logPath)}`,
    `  <key>StandardErrorPath</key>${string(logPath)}`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
