// Settings, API keys (the key shown once), the scheduler's pause switch, and facts about this Steward.
import type { ApiKey, Scope, Settings, SettingsPatch } from '../../../../shared/contract';
import type { Output } from '../../lib/api';
import type { Slice } from '../../store';

export interface SettingsSlice {
  settings: Settings | undefined;
  apiKeys: ApiKey[];
  paused: boolean;
  system: Output<'system.get'>['system'] | undefined;
  /** Why Steward cannot write right now (a full disk), or undefined while it can. */
  degraded: string | undefined;
  loadHealth: () => Promise<void>;
  loadSettings: () => Promise<void>;
  updateSettings: (patch: SettingsPatch) => Promise<void>;
  createApiKey: (name: string, scope?: Scope) => Promise<string>;
  revokeApiKey: (id: string) => Promise<void>;
  /** The keys again: one made or revoked anywhere (the CLI too) is announced as `changed apiKey`. */
  loadApiKeys: () => Promise<void>;
  setPaused: (paused: boolean) => Promise<void>;
}

export const settingsSlice: Slice<SettingsSlice> = (set, get) => ({
  settings: undefined,
  apiKeys: [],
  paused: false,
  system: undefined,
  degraded: undefined,
  async loadHealth() {
    const health = await get().client.call('health.get');
    set({ degraded: health.status === 'degraded' ? (health.reason ?? 'Steward cannot write its data.') : undefined });
  },
  async loadSettings() {
    const [{ settings }, { apiKeys }, { scheduler }, { system }] = await Promise.all([get().client.call('settings.get'), get().client.call('keys.list'), get().client.call('scheduler.get'), get().client.call('system.get')]);
    set({ settings, apiKeys, paused: scheduler.paused, system });
  },
  async loadApiKeys() {
    set({ apiKeys: (await get().client.call('keys.list')).apiKeys });
  },
  async updateSettings(patch) {
    const { settings } = await get().client.call('settings.update', { body: patch });
    set({ settings });
  },
  async createApiKey(name, scope = 'admin') {
    const { apiKey, key } = await get().client.call('keys.create', { body: { name, scope } });
    // The `changed` event may have brought it already.
    set({ apiKeys: [...get().apiKeys.filter((each) => each.id !== apiKey.id), apiKey] });
    return key;
  },
  async revokeApiKey(id) {
    await get().client.call('keys.revoke', { params: { id } });
    set({ apiKeys: get().apiKeys.filter((each) => each.id !== id) });
  },
  async setPaused(paused) {
    const { scheduler } = await get().client.call('scheduler.update', { body: { paused } });
    set({ paused: scheduler.paused });
  },
});
