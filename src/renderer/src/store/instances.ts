// Instances: the list, create, rename, avatar and agent, start and stop.
import type { AgentConfig, Instance } from '../../../shared/contract';
import type { Slice } from '.';

export interface InstancesSlice {
  instances: Instance[];
  loadInstances: () => Promise<void>;
  createInstance: (body: Record<string, unknown>) => Promise<Instance>;
  updateInstance: (id: string, body: { name?: string; avatarUrl?: string; agent?: AgentConfig }) => Promise<Instance>;
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
