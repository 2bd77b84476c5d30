// Which of a run's refused connections its feed says, and which it only counts. A refusal of a host
// the agent's CLI is known to phone home to (telemetry-hosts.ts) is counted, never announced: the
// user can do nothing about it, and it would say so on every run. Any other refusal is said once
// per instance and host (or, for this machine, port) a day, not once per run; none is said after
// the run's last line. The memory of what was said is in this process, and bounded.
import type { Denial } from '../sandbox/egress';
import { isTelemetry } from '../sandbox/telemetry-hosts';
import type { Clock } from '../scheduler/clock';

const dayMs = 24 * 60 * 60 * 1000;

/** What a run's sandbox refused without saying so, by host:port: its CLI's telemetry, and what was said earlier in the day. */
export interface QuietRefusals {
  telemetry: Record<string, number>;
  saidBefore: Record<string, number>;
}

export interface RunRefusals {
  /** A connection was refused: true when the feed says so. */
  refused(denial: Denial): boolean;
  /** The run ended (its last line is being written): nothing more is said; what went unsaid, if anything did. */
  end(): QuietRefusals | undefined;
}

/** `remembered`: how many instance-and-host pairs it keeps the time of (the oldest said is forgotten first). */
export function createRefusalNotices(clock: Clock, remembered = 2000) {
  /** `<instance> <host or fix>` → when it was last said, oldest first. */
  const said = new Map<string, number>();

  return {
    /** For one run of an instance whose agent is `preset` (footprintName). */
    open(instanceId: string, preset: string): RunRefusals {
      const quiet: QuietRefusals = { telemetry: {}, saidBefore: {} };
      let ended = false;
      const count = (into: Record<string, number>, denial: Denial) => {
        const key = `${denial.host}:${denial.port}`;
        into[key] = (into[key] ?? 0) + 1;
      };
      return {
        refused(denial) {
          if (ended) return false;
          if (isTelemetry(preset, denial.host)) {
            count(quiet.telemetry, denial);
            return false;
          }
          // A name is one line whatever its port; this machine's services, one per port (each is its own fix).
          const key = `${instanceId} ${denial.allow ?? denial.host}`;
          const now = clock.now().getTime();
          const last = said.get(key);
          if (last !== undefined && now - last < dayMs) {
            count(quiet.saidBefore, denial);
            return false;
          }
          said.delete(key);
          said.set(key, now);
          for (const oldest of said.keys()) {
            if (said.size <= remembered) break;
            said.delete(oldest);
          }
          return true;
        },
        end() {
          ended = true;
          return Object.keys(quiet.telemetry).length + Object.keys(quiet.saidBefore).length > 0 ? quiet : undefined;
        },
      };
    },
  };
}

export type RefusalNotices = ReturnType<typeof createRefusalNotices>;
