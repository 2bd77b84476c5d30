// The hosts each agent CLI phones home to on its own (usage statistics, experiments, error reports,
// its model catalogue), found by running the pinned CLIs sandboxed with a plain configuration and
// reading what the proxy refused, and from the hosts their binaries name. A sandbox refusing one of
// them is counted, not announced (runner/refusal-notices.ts): the CLI works without them, and a line
// on every run would teach users to allow hosts they do not need.
//
// Deliberately not here: hosts a CLI also reaches on its own but that a task may need as well
// (Codex's plugin sync to github.com and api.github.com, OpenCode's plugin install from
// registry.npmjs.org): a refusal of those is said like any other, once a day.
import { bareHost } from '../../../shared/addresses';

const telemetry: Record<string, readonly string[]> = {
  // ab.chatgpt.com: its experiments, at the end of every run; Sentry: its crash reports.
  codex: ['ab.chatgpt.com', '*.ingest.sentry.io', '*.ingest.us.sentry.io'],
  // Statsig metrics (docs: "Network access requirements"), Sentry error reports, Datadog logs.
  'claude-code': ['statsig.anthropic.com', 'statsig.com', '*.statsig.com', 'sentry.io', '*.ingest.sentry.io', '*.ingest.us.sentry.io', 'http-intake.logs.us5.datadoghq.com'],
  // Clearcut usage statistics (play.googleapis.com/log), twice a run.
  gemini: ['play.googleapis.com'],
  // The models.dev catalogue it fetches at start.
  opencode: ['models.opencode.ai', 'models.dev'],
  goose: [],
};

const matches = (pattern: string, host: string) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern);

/** Whether `host` is the telemetry of the CLI `preset` names (footprintName: a preset, or the CLI an ACP command runs). */
export function isTelemetry(preset: string, host: string): boolean {
  const bare = bareHost(host);
  return (telemetry[preset] ?? []).some((pattern) => matches(pattern, bare));
}
