// The tunnel (its provider, state and public URL) and the stored secrets (names and dates only).
import type { Secret, TunnelConfig, TunnelState } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface TunnelSlice {
  tunnel: TunnelState | undefined;
  secrets: Secret[];
  loadTunnel: () => Promise<void>;
  configureTunnel: (config: TunnelConfig) => Promise<void>;
  startTunnel: () => Promise<void>;
  stopTunnel: () => Promise<void>;
  loadSecrets: () => Promise<void>;
  putSecret: (name: string, value: string) => Promise<void>;
  deleteSecret: (name: string) => Promise<void>;
}

export const tunnelSlice: Slice<TunnelSlice> = (set, get) => ({
  tunnel: undefined,
  secrets: [],
  async loadTunnel() {
    set({ tunnel: (await get().client.call('tunnel.get')).tunnel });
  },
  async configureTunnel(config) {
    set({ tunnel: (await get().client.call('tunnel.configure', { body: config })).tunnel });
  },
  async startTunnel() {
    set({ tunnel: (await get().client.call('tunnel.start', { body: {} })).tunnel });
  },
  async stopTunnel() {
    set({ tunnel: (await get().client.call('tunnel.stop', { body: {} })).tunnel });
  },
  async loadSecrets() {
    set({ secrets: (await get().client.call('secrets.list')).secrets });
  },
  async putSecret(name, value) {
    const { secret } = await get().client.call('secrets.put', { params: { name }, body: { value } });
    set({ secrets: [...get().secrets.filter((each) => each.name !== name), secret].sort((a, b) => a.name.localeCompare(b.name)) });
  },
  async deleteSecret(name) {
    await get().client.call('secrets.delete', { params: { name } });
    set({ secrets: get().secrets.filter((each) => each.name !== name) });
  },
});
