// What the tray shows, from Steward's state: runs running and the next fire, how many runs need
// attention (failed, or their agent said so; quiet and done runs are not counted), the last 5 runs
// (a click opens one), pause or resume, open, quit; and which icon suits the tray. Pure, so it is
// tested without Electron.
import type { Outcome, RunStatus } from '../../shared/contract';

export type TrayAction = { kind: 'open' } | { kind: 'openRun'; runId: string } | { kind: 'pause' } | { kind: 'resume' } | { kind: 'quit' };

export type TrayItem = { type: 'separator' } | { label: string; enabled: boolean; action?: TrayAction };

/** A recent run as the tray names it: what ran (the automation, webhook or instance) and how it went. */
export interface TrayRun {
  id: string;
  title: string;
  status: RunStatus;
  finishedAt: string | null;
  outcome?: Outcome | null | undefined;
}

const failures = new Set<RunStatus>(['failed', 'timed_out', 'interrupted']);

type Ending = { status: RunStatus; outcome?: Outcome | null | undefined; finishedAt: string | null };

/** A run someone should look at: it failed, or its agent reported needs_attention. */
const needsAttention = (run: Ending): boolean => failures.has(run.status) || (run.status === 'succeeded' && run.outcome === 'needs_attention');

/** How many of these runs finished in the last day needing attention: the count the tray shows. */
export const attentionCount = (runs: readonly Ending[], now: Date): number =>
  runs.filter((run) => run.finishedAt !== null && now.getTime() - Date.parse(run.finishedAt) <= 24 * 3600e3 && needsAttention(run)).length;

export interface TrayState {
  running: number;
  queued: number;
  paused: boolean;
  nextFire: { at: string; name: string } | null;
  /** Newest first. */
  recent: TrayRun[];
  /** Runs of the last day that need attention (attentionCount). */
  attention?: number | undefined;
  /** Why Steward cannot save anything right now (a full disk), when it cannot. */
  storageProblem?: string | undefined;
}

const shorten = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const statusWords: Record<RunStatus, string> = {
  queued: 'queued',
  waiting: 'waiting for you',
  running: 'running',
  succeeded: 'finished',
  failed: 'failed',
  cancelled: 'cancelled',
  timed_out: 'timed out',
  interrupted: 'interrupted',
};

export function trayTooltip(state: TrayState): string {
  const runs = state.running === 0 ? 'idle' : `${state.running} running`;
  const problem = state.storageProblem ? `, cannot save: ${state.storageProblem}` : '';
  return `Steward — ${runs}${state.queued > 0 ? `, ${state.queued} queued` : ''}${attentionWords(state, ', ')}${state.paused ? ', automations paused' : ''}${problem}`;
}

/** The text beside the tray icon (macOS): the count of runs that need attention, or nothing. */
export const trayTitle = (state: TrayState): string => (state.attention ? String(state.attention) : '');

const attentionWords = (state: TrayState, before: string): string =>
  state.attention ? `${before}${state.attention} ${state.attention === 1 ? 'run needs' : 'runs need'} attention` : '';

export function runLabel(run: TrayRun, now: Date): string {
  const when = run.finishedAt ? ` ${ago(new Date(run.finishedAt), now)}` : '';
  const how = run.status === 'succeeded' && run.outcome === 'needs_attention' ? 'needs attention' : run.status === 'succeeded' && run.outcome === 'nothing_to_report' ? 'nothing to report' : statusWords[run.status];
  return shorten(`${run.title} — ${how}${when}`);
}

export function trayMenu(state: TrayState, now: Date): TrayItem[] {
  const items: TrayItem[] = [
    ...(state.storageProblem ? [{ label: shorten(`Cannot save: ${state.storageProblem}`, 80), enabled: false }, { type: 'separator' as const }] : []),
    { label: state.running === 0 ? 'No runs running' : `${state.running} ${state.running === 1 ? 'run' : 'runs'} running${state.queued > 0 ? `, ${state.queued} queued` : ''}`, enabled: false },
    {
      label: state.paused ? 'Automations paused' : state.nextFire ? `Next: ${state.nextFire.name} ${relative(new Date(state.nextFire.at), now)}` : 'No automation scheduled',
      enabled: false,
    },
    ...(state.attention ? [{ label: attentionWords(state, ''), enabled: true, action: { kind: 'open' as const } }] : []),
    { type: 'separator' },
  ];
  if (state.recent.length > 0) {
    for (const run of state.recent.slice(0, 5)) items.push({ label: runLabel(run, now), enabled: true, action: { kind: 'openRun', runId: run.id } });
    items.push({ type: 'separator' });
  }
  items.push(
    state.paused ? { label: 'Resume all automations', enabled: true, action: { kind: 'resume' } } : { label: 'Pause all automations', enabled: true, action: { kind: 'pause' } },
    { label: 'Open Steward', enabled: true, action: { kind: 'open' } },
    { type: 'separator' },
    { label: 'Quit Steward', enabled: true, action: { kind: 'quit' } },
  );
  return items;
}

/**
 * The tray icon's file in resources/tray: a template on macOS (the menu bar tints it), elsewhere a
 * light glyph on dark trays and a dark one on light trays. Electron picks the @2x file beside it
 * on high-density screens.
 */
export function trayIconFile(platform: NodeJS.Platform, darkTray: boolean): string {
  if (platform === 'darwin') return 'trayTemplate.png';
  return darkTray ? 'tray-dark.png' : 'tray-light.png';
}

/** "in 5 min", "in 2 h", "in 3 days". */
export function relative(at: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((at.getTime() - now.getTime()) / 60_000));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

/** "just now", "5 min ago", "2 h ago", "3 days ago". */
export function ago(at: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - at.getTime()) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
