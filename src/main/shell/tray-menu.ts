// What the tray shows, from Steward's state: runs running and the next fire, the last 5 runs (a
// click opens one), pause or resume, open, quit; and which icon suits the tray. Pure, so it is
// tested without Electron.
import type { RunStatus } from '../../shared/contract';

export type TrayAction = { kind: 'open' } | { kind: 'openRun'; runId: string } | { kind: 'pause' } | { kind: 'resume' } | { kind: 'quit' };

export type TrayItem = { type: 'separator' } | { label: string; enabled: boolean; action?: TrayAction };

/** A recent run as the tray names it: what ran (the automation, webhook or instance) and how it went. */
export interface TrayRun {
  id: string;
  title: string;
  status: RunStatus;
  finishedAt: string | null;
}

export interface TrayState {
  running: number;
  queued: number;
  paused: boolean;
  nextFire: { at: string; name: string } | null;
  /** Newest first. */
  recent: TrayRun[];
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
  return `Steward — ${runs}${state.queued > 0 ? `, ${state.queued} queued` : ''}${state.paused ? ', automations paused' : ''}${problem}`;
}

export function runLabel(run: TrayRun, now: Date): string {
  const when = run.finishedAt ? ` ${ago(new Date(run.finishedAt), now)}` : '';
  return shorten(`${run.title} — ${statusWords[run.status]}${when}`);
}

export function trayMenu(state: TrayState, now: Date): TrayItem[] {
  const items: TrayItem[] = [
    ...(state.storageProblem ? [{ label: shorten(`Cannot save: ${state.storageProblem}`, 80), enabled: false }, { type: 'separator' as const }] : []),
    { label: state.running === 0 ? 'No runs running' : `${state.running} ${state.running === 1 ? 'run' : 'runs'} running${state.queued > 0 ? `, ${state.queued} queued` : ''}`, enabled: false },
    {
      label: state.paused ? 'Automations paused' : state.nextFire ? `Next: ${state.nextFire.name} ${relative(new Date(state.nextFire.at), now)}` : 'No automation scheduled',
      enabled: false,
    },
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
