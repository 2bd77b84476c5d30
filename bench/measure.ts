// What several benchmarks measure the same way: a median, one health request's latency, a
// process's resident memory.
import fs from 'node:fs';
import http from 'node:http';

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One GET /api/health on a fresh connection, in milliseconds; NaN when it fails. */
export function healthMs(port: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(performance.now() - started));
      })
      .on('error', () => resolve(Number.NaN));
  });
}

/** A process's resident memory in MB, from Linux's /proc; null elsewhere or once it is gone. */
export function residentMB(pid: number): number | null {
  try {
    const kB = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kB === undefined ? null : Number(kB) / 1024;
  } catch {
    return null;
  }
}
