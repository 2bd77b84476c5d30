// Automations: the list, and create, update, delete, run now.
import type { Automation, Run } from '../../../shared/contract';
import type { Slice } from '.';

export interface AutomationsSlice {
  automations: Automation[];
  loadAutomations: () => Promise<void>;
  saveAutomation: (id: string | undefined, body: Record<string, unknown>) => Promise<Automation>;
  deleteAutomation: (id: string) => Promise<void>;
  runAutomation: (id: string) => Promise<Run>;
}

export const automationsSlice: Slice<AutomationsSlice> = (set, get) => ({
  automations: [],
  async loadAutomations() {
    const { automations } = await get().client.call('automations.list');
    set({ automations });
  },
  async saveAutomation(id, body) {
    const { automation } = id === undefined ? await get().client.call('automations.create', { body }) : await get().client.call('automations.update', { params: { id }, body });
    set({ automations: [...get().automations.filter((each) => each.id !== automation.id), automation].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) });
    return automation;
  },
  async deleteAutomation(id) {
    await get().client.call('automations.delete', { params: { id } });
    set({ automations: get().automations.filter((each) => each.id !== id) });
  },
  async runAutomation(id) {
    const { run } = await get().client.call('automations.run', { params: { id } });
    get().upsertRun(run);
    return run;
  },
});
