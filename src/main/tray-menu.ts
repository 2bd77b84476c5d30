// What the tray menu says, from Steward's state: runs running and the next fire, the last 5
// events, pause or resume, open, quit. Pure, so it is tested without Electron.
import type { ActivityEvent } from '../shared/contract';

export type TrayAction = { kind: 'open' } | { kind: 'openRun'; runId: string } | { kind: 'pause' } | { kind: 'resume' } | { kind: 'quit' };

export type TrayItem = { type: 'separator' } | { label: string; enabled: boolean; action?: TrayAction };

export interface TrayState {
  running: number;
  queued: number;
  paused: boolean;
  nextFire: { at: string; name: string } | null;
  recent: ActivityEvent[];
}

const shorten = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function trayTooltip(state: TrayState): string {
  const runs = state.running === 0 ? 'idle' : `${state.running} running`;
  return `Steward — ${runs}${state.queued > 0 ? `, ${state.queued} queued` : ''}${state.paused ? ', automations paused' : ''}`;
}

export function trayMenu(state: TrayState, now: Date): TrayItem[] {
  const items: TrayItem[] = [
    { label: state.running === 0 ? 'No runs running' : `${state.running} ${state.running === 1 ? 'run' : 'runs'} running${state.queued > 0 ? `, ${state.queued} queued` : ''}`, enabled: false },
    {
      label: state.paused ? 'Automations paused' : state.nextFire ? `Next: ${state.nextFire.name} ${relative(new Date(state.nextFire.at), now)}` : 'No automation scheduled',
      enabled: false,
    },
    { type: 'separator' },
  ];
  if (state.recent.length > 0) {
    for (const event of state.recent.slice(-5).reverse()) {
      items.push({ label: shorten(`${event.instanceName}: ${event.displayText}`), enabled: event.runId !== null, ...(event.runId ? { action: { kind: 'openRun', runId: event.runId } } : {}) });
    }
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

/** "in 5 min", "in 2 h", "in 3 days". */
export function relative(at: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((at.getTime() - now.getTime()) / 60_000));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}
