// Automations: the list, and create, update, delete, run now; one reloaded when it changed live
// (an edit through the API, a run that moved its next and last run on); and what an event trigger
// would have fired in the last 24 h (the form's Check).
import type { Automation, AutomationTrigger, PreviewedEvent, Run } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface AutomationsSlice {
  automations: Automation[];
  loadAutomations: () => Promise<void>;
  saveAutomation: (id: string | undefined, body: Record<string, unknown>) => Promise<Automation>;
  deleteAutomation: (id: string) => Promise<void>;
  runAutomation: (id: string) => Promise<Run>;
  /** Reloads one automation (dropped when it is gone). */
  refreshAutomation: (id: string) => Promise<void>;
  /** What the event trigger would have fired in the last 24 h, newest first, read from its source now. */
  previewTrigger: (trigger: AutomationTrigger, timezone: string) => Promise<PreviewedEvent[]>;
}

export const automationsSlice: Slice<AutomationsSlice> = (set, get) => {
  const put = (automation: Automation) =>
    set({ automations: [...get().automations.filter((each) => each.id !== automation.id), automation].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) });
  return {
    automations: [],
    async loadAutomations() {
      const { automations } = await get().client.call('automations.list');
      set({ automations });
    },
    async saveAutomation(id, body) {
      const { automation } = id === undefined ? await get().client.call('automations.create', { body }) : await get().client.call('automations.update', { params: { id }, body });
      put(automation);
      return automation;
    },
    async refreshAutomation(id) {
      try {
        put((await get().client.call('automations.get', { params: { id } })).automation);
      } catch (error) {
        if ((error as { code?: string }).code !== 'not_found') throw error;
        set({ automations: get().automations.filter((each) => each.id !== id) });
      }
    },
    async deleteAutomation(id) {
      await get().client.call('automations.delete', { params: { id } });
      set({ automations: get().automations.filter((each) => each.id !== id) });
    },
    async previewTrigger(trigger, timezone) {
      return (await get().client.call('automations.preview', { body: { trigger, timezone } })).events;
    },
    async runAutomation(id) {
      const { run } = await get().client.call('automations.run', { params: { id } });
      get().upsertRun(run);
      return run;
    },
  };
};
