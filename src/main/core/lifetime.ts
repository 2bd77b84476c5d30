// What a running core holds (its listener, its services' timers and runs, its store, its lock),
// stopped in reverse order of starting, each once. A start that fails part way stops what it had
// started, so that nothing is left running behind the error.
import type { Logger } from './logger';

export interface Lifetime {
  /** Starts one part; what `start` returns is how it stops. */
  start(name: string, start: () => (() => unknown) | Promise<() => unknown>): Promise<void>;
  /** Something already held, stopped in its turn. */
  hold(name: string, stop: () => unknown): void;
  /** Stops everything, last started first; a part that fails to stop is logged and the rest go on. */
  stop(): Promise<void>;
}

export function createLifetime(logger: Logger): Lifetime {
  const held: Array<{ name: string; stop: () => unknown }> = [];
  let stopping: Promise<void> | undefined;

  return {
    async start(name, start) {
      try {
        held.push({ name, stop: await start() });
      } catch (error) {
        await this.stop();
        throw error;
      }
    },
    hold(name, stop) {
      held.push({ name, stop });
    },
    stop() {
      stopping ??= (async () => {
        while (held.length > 0) {
          const { name, stop } = held.pop()!;
          try {
            await stop();
          } catch (error) {
            logger.error({ err: error, part: name }, 'could not stop part of Steward cleanly');
          }
        }
      })();
      return stopping;
    },
  };
}
