// What an automation's card opens onto: its spend and outcomes of the last 30 days, and its runs
// (the card's History; the run page finds a run's retry among them), and its fires (for an event
// trigger, what happened: the event each run was started by, and the events that started none).
import type { Fire, Run, Spend } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface AutomationDetailsSlice {
  /** By automation id, as of its last load. */
  spend: Record<string, Spend>;
  /** The newest runs of an automation or webhook, by its id, as of their last load. */
  sourceRuns: Record<string, Run[]>;
  /** The newest fires of an automation, by its id, as of their last load. */
  fires: Record<string, Fire[]>;
  loadSpend: (automationId: string) => Promise<void>;
  loadFires: (automationId: string) => Promise<void>;
  loadSourceRuns: (sourceId: string) => Promise<void>;
}

const historySize = 20;

export const automationDetailsSlice: Slice<AutomationDetailsSlice> = (set, get) => ({
  spend: {},
  sourceRuns: {},
  fires: {},
  async loadSpend(automationId) {
    const { spend } = await get().client.call('automations.spend', { params: { id: automationId } });
    set({ spend: { ...get().spend, [automationId]: spend } });
  },
  async loadFires(automationId) {
    const { fires } = await get().client.call('automations.fires', { params: { id: automationId }, query: { limit: historySize * 5 } });
    set({ fires: { ...get().fires, [automationId]: fires } });
  },
  async loadSourceRuns(sourceId) {
    const { runs } = await get().client.call('runs.list', { query: { sourceId, limit: historySize } });
    set({ sourceRuns: { ...get().sourceRuns, [sourceId]: runs } });
  },
});
