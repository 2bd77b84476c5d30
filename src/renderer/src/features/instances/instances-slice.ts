// Instances: the list, create, rename, avatar, agent and sandbox, start and stop; a sandbox switched
// on or off, and a refused host allowed, in one step each.
import type { AgentConfig, Budget, Instance, Permissions, SandboxConfig, SandboxMode } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface InstancesSlice {
  instances: Instance[];
  loadInstances: () => Promise<void>;
  createInstance: (body: Record<string, unknown>) => Promise<Instance>;
  updateInstance: (id: string, body: { name?: string; avatarUrl?: string; agent?: AgentConfig; sandbox?: SandboxConfig; budget?: Budget; permissions?: Permissions; acceptsPromptsFrom?: string[] }) => Promise<Instance>;
  /** The sandbox on or off, the rest of it as it is. */
  setSandboxMode: (id: string, mode: SandboxMode) => Promise<Instance>;
  /** Adds a rule to the sandbox's network unless it is there already (`added` says which). */
  allowHost: (id: string, rule: string) => Promise<{ instance: Instance; added: boolean }>;
  setInstanceRunning: (id: string, running: boolean) => Promise<Instance>;
  deleteInstance: (id: string) => Promise<void>;
  /** From a live event. */
  upsertInstance: (instance: Instance) => void;
}

export const instancesSlice: Slice<InstancesSlice> = (set, get) => {
  // An action's answer can arrive after a live event that already told of a later change (a probe
  // that finished first): an answer never replaces what is as new or newer. Live events always apply.
  const put = (instance: Instance, live = false) => {
    const known = get().instances.find((each) => each.id === instance.id);
    if (!live && known && known.updatedAt >= instance.updatedAt) return known;
    set({ instances: [...get().instances.filter((each) => each.id !== instance.id), instance].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) });
    return instance;
  };
  return {
    instances: [],
    async loadInstances() {
      const { instances } = await get().client.call('instances.list');
      set({ instances });
    },
    async createInstance(body) {
      return put((await get().client.call('instances.create', { body })).instance);
    },
    async updateInstance(id, body) {
      return put((await get().client.call('instances.update', { params: { id }, body })).instance);
    },
    // Both read the sandbox as the server has it now: a PATCH replaces the whole of it, so an edit
    // made meanwhile elsewhere (another window, the API) is kept rather than overwritten.
    async setSandboxMode(id, mode) {
      const { instance } = await get().client.call('instances.get', { params: { id } });
      if (instance.sandbox.mode === mode) return put(instance);
      return get().updateInstance(id, { sandbox: { ...instance.sandbox, mode } });
    },
    async allowHost(id, rule) {
      const { instance } = await get().client.call('instances.get', { params: { id } });
      if (instance.sandbox.network.includes(rule)) return { instance: put(instance), added: false };
      return { instance: await get().updateInstance(id, { sandbox: { ...instance.sandbox, network: [...instance.sandbox.network, rule] } }), added: true };
    },
    async setInstanceRunning(id, running) {
      return put((await get().client.call(running ? 'instances.start' : 'instances.stop', { params: { id } })).instance);
    },
    upsertInstance: (instance) => void put(instance, true),
    async deleteInstance(id) {
      await get().client.call('instances.delete', { params: { id } });
      set({ instances: get().instances.filter((each) => each.id !== id) });
    },
  };
};
