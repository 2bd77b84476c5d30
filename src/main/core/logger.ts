// Structured logs (pino) on stderr, so stdout stays for what a command prints for people and scripts.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string = process.env.STEWARD_LOG_LEVEL ?? 'info'): Logger {
  return pino(
    {
      name: 'steward',
      level,
      // Belt and braces: no code path logs these, and if one ever does they come out censored.
      redact: { paths: ['token', 'key', 'apiKey', 'authorization', '*.token', '*.key', '*.authorization', 'headers.authorization'], censor: '[secret]' },
    },
    pino.destination({ fd: 2, sync: false }),
  );
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
