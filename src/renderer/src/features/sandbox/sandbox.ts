// What the UI reads from and writes to an instance's sandbox: a draft from the agent form checked
// with the contract's own schemas, a refused connection read back from a run's line (the feed's raw
// JSON, or the text of the run's system message), the network rule that would allow it, and whether
// an instance is in error because this machine cannot sandbox.
import { EnvName, type Instance, NetworkHost, SandboxConfig, SandboxPath } from '../../../../shared/contract';

export type SandboxList = 'network' | 'readAllow' | 'readDeny' | 'writeAllow' | 'envAllow';

export const listNames: Record<SandboxList, string> = { network: 'Allowed hosts', readAllow: 'Also readable', readDeny: 'Hidden from the agent', writeAllow: 'Also writable', envAllow: 'Passed on from Steward’s environment' };

const entrySchemas = { network: NetworkHost, readAllow: SandboxPath, readDeny: SandboxPath, writeAllow: SandboxPath, envAllow: EnvName };

/** Why one entry of a list is refused, or undefined; an empty row is dropped on save, not refused. */
export function entryProblem(list: SandboxList, value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const result = entrySchemas[list].safeParse(value);
  return result.success ? undefined : (result.error.issues[0]?.message ?? 'is not valid');
}

/** The draft as the API takes it (rows trimmed, empty ones dropped, repeats once), or the first problem in words. */
export function sandboxToSave(draft: SandboxConfig): { ok: true; sandbox: SandboxConfig } | { ok: false; problem: string } {
  // A remote Steward of an older version may not send every list (readAllow, envAllow): none is none.
  const rows = (list: string[] | undefined) => (list ?? []).map((entry) => entry.trim()).filter(Boolean);
  const result = SandboxConfig.safeParse({ mode: draft.mode, network: rows(draft.network), readAllow: rows(draft.readAllow), readDeny: rows(draft.readDeny), writeAllow: rows(draft.writeAllow), envAllow: rows(draft.envAllow), limits: draft.limits });
  if (!result.success) {
    const issue = result.error.issues[0];
    const [list, index] = issue?.path ?? [];
    const where = typeof list === 'string' && list in listNames ? `${listNames[list as SandboxList]}${typeof index === 'number' ? `, entry ${index + 1}` : ''}: ` : '';
    return { ok: false, problem: `${where}${issue?.message ?? 'the sandbox is not valid'}` };
  }
  const once = (list: string[]) => [...new Set(list)];
  const { data } = result;
  return { ok: true, sandbox: { ...data, network: once(data.network), readAllow: once(data.readAllow), readDeny: once(data.readDeny), writeAllow: once(data.writeAllow), envAllow: once(data.envAllow) } };
}

/** A connection the sandbox refused, and the network entry that would allow it (none when nothing would). */
export interface Denial {
  host: string;
  port: number;
  why: string;
  allow?: string | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function denialOf(host: unknown, port: unknown, why: unknown, allow: unknown): Denial | undefined {
  const number = typeof port === 'string' ? Number(port) : port;
  if (typeof host !== 'string' || host.trim() === '' || typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > 65535) return undefined;
  return { host: host.trim(), port: number, why: typeof why === 'string' ? why : '', ...(typeof allow === 'string' ? { allow } : {}) };
}

/** From an activity line's raw JSON: `{"type":"system","event":{"type":"sandbox.denied","host":…,"port":…,"why":…,"allow":…}}`. */
export function denialFromRaw(raw: string): Denial | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const event = isRecord(parsed) ? parsed.event : undefined;
  if (!isRecord(event) || event.type !== 'sandbox.denied') return undefined;
  return denialOf(event.host, event.port, event.why, event.allow);
}

// The run's system message: "The sandbox refused <host>:<port>: <why>." and, when something would allow it, " To allow it, add <entry> to the instance's sandbox network."
const denialText = /^The sandbox refused (\S+):(\d+): ([\s\S]*?)\.?(?: To allow it, add (\S+) to the instance's sandbox network\.?)?\s*$/;

/** From the text of a run's system message (messages carry no raw event). */
export function denialFromText(text: string): Denial | undefined {
  const match = denialText.exec(text.trim());
  return match ? denialOf(match[1].replace(/^\[(.*)\]$/, '$1'), match[2], match[3], match[4]) : undefined;
}

/** The entry of `network` that allows a refused connection, as the core named it; undefined when nothing would (Steward's own port, link-local, …). */
export function ruleFor(denial: Denial): string | undefined {
  if (denial.allow === undefined) return undefined;
  const result = NetworkHost.safeParse(denial.allow);
  return result.success ? result.data : undefined;
}

/**
 * A sandboxed instance in error because this machine cannot sandbox (no bubblewrap or socat, no user
 * namespaces, a platform without a backend). The probe says so only in words, each reason naming the
 * remedy of setting the sandbox to "off".
 */
export const cannotSandbox = (instance: Instance): boolean =>
  instance.sandbox.mode === 'sandbox' && instance.status === 'error' && /cannot sandbox|sandbox to "off"/i.test(instance.statusReason ?? '');
