// Run notification channels (where notifications leave the machine), each channel's recent
// deliveries, and the notifications a run caused. A webhook channel's signing secret comes back
// from create (or regenerate) only: the caller shows it once and keeps it nowhere.
import type { NotificationChannel, NotificationDelivery } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface NotificationsSlice {
  channels: NotificationChannel[];
  /** Recent deliveries by channel id, newest first. */
  channelDeliveries: Record<string, NotificationDelivery[]>;
  /** Deliveries by run id. */
  runNotifications: Record<string, NotificationDelivery[]>;
  loadChannels: () => Promise<void>;
  /** Creates (no id) or updates a channel; returns the signing secret when one was just made. */
  saveChannel: (id: string | undefined, body: Record<string, unknown>) => Promise<{ channel: NotificationChannel; signingSecret: string | null }>;
  deleteChannel: (id: string) => Promise<void>;
  /** Sends a test message now; the delivery says how it went. */
  testChannel: (id: string) => Promise<NotificationDelivery>;
  loadChannelDeliveries: (id: string) => Promise<void>;
  loadRunNotifications: (runId: string) => Promise<void>;
}

export const notificationsSlice: Slice<NotificationsSlice> = (set, get) => {
  const replace = (channel: NotificationChannel) => {
    const others = get().channels.filter((each) => each.id !== channel.id);
    set({ channels: [...others, channel].sort((a, b) => a.id.localeCompare(b.id)) });
  };
  return {
    channels: [],
    channelDeliveries: {},
    runNotifications: {},
    async loadChannels() {
      set({ channels: (await get().client.call('notifications.list')).channels });
    },
    async saveChannel(id, body) {
      const answer = id ? await get().client.call('notifications.update', { params: { id }, body }) : await get().client.call('notifications.create', { body });
      replace(answer.channel);
      return answer;
    },
    async deleteChannel(id) {
      await get().client.call('notifications.delete', { params: { id } });
      const { [id]: _gone, ...rest } = get().channelDeliveries;
      set({ channels: get().channels.filter((each) => each.id !== id), channelDeliveries: rest });
    },
    async testChannel(id) {
      const { delivery } = await get().client.call('notifications.test', { params: { id }, body: {} });
      replace((await get().client.call('notifications.get', { params: { id } })).channel);
      set({ channelDeliveries: { ...get().channelDeliveries, [id]: [delivery, ...(get().channelDeliveries[id] ?? [])] } });
      return delivery;
    },
    async loadChannelDeliveries(id) {
      const { deliveries } = await get().client.call('notifications.deliveries', { params: { id }, query: { limit: 20 } });
      set({ channelDeliveries: { ...get().channelDeliveries, [id]: deliveries } });
    },
    async loadRunNotifications(runId) {
      const { deliveries } = await get().client.call('notifications.forRun', { params: { id: runId } });
      set({ runNotifications: { ...get().runNotifications, [runId]: deliveries } });
    },
  };
};
