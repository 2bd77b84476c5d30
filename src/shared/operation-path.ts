// An operation's path with its parameters filled in: the one way the renderer, the CLI and a
// forward to a remote Steward turn `/api/runs/{id}` into a URL path. A missing parameter is a
// mistake of the caller, said as one, never sent as `/api/runs/undefined` (or `/api/runs/`, which
// names another operation).
import { AppError } from './errors';

export function fillPath(operation: { name: string; path: string }, params: Readonly<Record<string, unknown>> = {}): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
    if (text === '') throw new AppError('missing_field', `${operation.name} needs its path parameter “${name}” (${operation.path}).`, { field: name });
    return encodeURIComponent(text);
  });
}
