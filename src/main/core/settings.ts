// The one place that knows where each setting is stored and what it is when unset. Stored per
// leaf in the settings table (`runner.maxRunning` → "2"), as JSON; "off" (written by earlier
// versions and by hand) reads as null.
import { type Settings, type SettingsPatch, defaultSettings, Settings as SettingsSchema } from '../../shared/contract';
import type { Store } from './store';
import { unchanged } from './unchanged';

type Section = Exclude<keyof Settings, 'defaultAgent' | 'mcpServers'>;
const sections: Section[] = ['runner', 'activity', 'deliveries', 'notifications', 'desktop'];

function read(store: Store, key: string, fallback: unknown): unknown {
  const raw = store.settings.get(key);
  if (raw === undefined) return fallback;
  if (raw === 'off') return null;
  try {
    return JSON.parse(raw);
  } catch {
    return fallback;
  }
}

const derived = new WeakMap<Store, { version: number; settings: Settings }>();

/** Every setting, stored or default. Cheap: re-read only after a write (triggers read it per request). */
export function readSettings(store: Store): Settings {
  const known = derived.get(store);
  if (known?.version === store.settings.version()) return known.settings;
  const settings = parseSettings(store);
  derived.set(store, { version: store.settings.version(), settings });
  return settings;
}

/** A stored value that no longer fits falls back to its default. */
function parseSettings(store: Store): Settings {
  const settings = structuredClone(defaultSettings) as Record<string, unknown>;
  for (const section of sections) {
    const values = settings[section] as Record<string, unknown>;
    for (const [name, fallback] of Object.entries(values)) values[name] = read(store, `${section}.${name}`, fallback);
  }
  settings.defaultAgent = read(store, 'defaultAgent', defaultSettings.defaultAgent);
  settings.mcpServers = read(store, 'mcpServers', defaultSettings.mcpServers);
  const checked = SettingsSchema.safeParse(settings);
  if (checked.success) return checked.data;
  // A hand-edited value: keep the ones that fit.
  for (const issue of checked.error.issues) {
    const [section, name] = issue.path as string[];
    if (section === 'defaultAgent') settings.defaultAgent = defaultSettings.defaultAgent;
    else if (section === 'mcpServers') settings.mcpServers = defaultSettings.mcpServers;
    else if (section && name) (settings[section] as Record<string, unknown>)[name] = (defaultSettings[section as Section] as Record<string, unknown>)[name];
  }
  return SettingsSchema.parse(settings);
}

/** Writes the given settings; call inside a transaction. A value already in force is not written again. */
export function writeSettings(store: Store, patch: SettingsPatch): void {
  const inForce = readSettings(store);
  const put = (key: string, value: unknown, current: unknown) => {
    if (!unchanged({ value }, { value: current })) store.settings.set(key, JSON.stringify(value));
  };
  for (const section of sections) {
    const current = inForce[section] as Record<string, unknown>;
    for (const [name, value] of Object.entries(patch[section] ?? {})) put(`${section}.${name}`, value, current[name]);
  }
  if (patch.defaultAgent) put('defaultAgent', patch.defaultAgent, inForce.defaultAgent);
  if (patch.mcpServers) put('mcpServers', patch.mcpServers, inForce.mcpServers);
}
