// The pending approvals, newest first: loaded at start, again on every `changed` event for an
// approval and on reconnect, so one decided anywhere (another tab, the phone, a timeout) is gone
// everywhere. A decision made here takes it off at once, before the event comes back.
import type { Approval, Decision } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface ApprovalsSlice {
  /** Pending approvals, newest first; undefined before the first load. */
  approvals: Approval[] | undefined;
  loadApprovals: () => Promise<void>;
  decideApproval: (id: string, decision: Decision) => Promise<Approval>;
}

export const approvalsSlice: Slice<ApprovalsSlice> = (set, get) => {
  // Loads may overlap (a burst of changes): only the newest one's answer is taken.
  let latest = 0;
  return {
    approvals: undefined,
    async loadApprovals() {
      const asked = ++latest;
      const { approvals } = await get().client.call('approvals.list', { query: { status: 'pending', limit: 500 } });
      if (asked === latest) set({ approvals });
    },
    async decideApproval(id, decision) {
      const { approval } = await get().client.call('approvals.decide', { params: { id }, body: decision });
      set({ approvals: get().approvals?.filter((each) => each.id !== id) });
      return approval;
    },
  };
};
