// The chats of each instance (threads it owns), the most recently active first; reloaded when one
// of their runs changes status.
import type { ThreadSummary } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface ChatsSlice {
  /** By instance id, as far as loaded. */
  chats: Record<string, ThreadSummary[]>;
  loadChats: (instanceId: string) => Promise<void>;
}

export const chatsSlice: Slice<ChatsSlice> = (set, get) => ({
  chats: {},
  async loadChats(instanceId) {
    const { threads } = await get().client.call('threads.list', { query: { instanceId, ownerType: 'chat', limit: 200 } });
    set({ chats: { ...get().chats, [instanceId]: threads } });
  },
});
