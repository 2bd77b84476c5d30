// The renderer's one store, built from slices. Actions call the client (lib/api.ts); components
// read the store and call actions, never the transport.
import { create, type StateCreator } from 'zustand';
import type { StewardClient } from '../lib/api';
import { type ActivitySlice, activitySlice } from '../features/activity/activity-slice';
import { type ApprovalsSlice, approvalsSlice } from '../features/approvals/approvals-slice';
import { type AutomationsSlice, automationsSlice } from '../features/automations/automations-slice';
import { type AutomationDetailsSlice, automationDetailsSlice } from '../features/automations/automation-details-slice';
import { type AgendaSlice, agendaSlice } from '../features/agenda/agenda-slice';
import { type ChatsSlice, chatsSlice } from '../features/chat/chats-slice';
import { type ConfigSlice, configSlice } from '../features/config/config-slice';
import { type InstancesSlice, instancesSlice } from '../features/instances/instances-slice';
import { type NotificationsSlice, notificationsSlice } from '../features/settings/notifications-slice';
import { type OnboardingSlice, onboardingSlice } from '../features/onboarding/onboarding-slice';
import { type RemotesSlice, remotesSlice } from '../features/settings/remotes-slice';
import { type RunListSlice, runListSlice } from '../features/runs/run-list-slice';
import { type RunsSlice, runsSlice } from '../features/runs/runs-slice';
import { type SettingsSlice, settingsSlice } from '../features/settings/settings-slice';
import { type ToastsSlice, toastsSlice } from '../ui/toasts-slice';
import { type TunnelSlice, tunnelSlice } from '../features/settings/tunnel-slice';
import { type WebhooksSlice, webhooksSlice } from '../features/webhooks/webhooks-slice';

export interface ClientSlice {
  client: StewardClient;
}

export type AppState = ClientSlice & AutomationsSlice & AutomationDetailsSlice & AgendaSlice & WebhooksSlice & InstancesSlice & RunsSlice & ActivitySlice & SettingsSlice & OnboardingSlice & ChatsSlice & RunListSlice & TunnelSlice & ToastsSlice & NotificationsSlice & ApprovalsSlice & RemotesSlice & ConfigSlice;
export type Slice<T> = StateCreator<AppState, [], [], T>;

/** A fresh store on a client: one per window, and one per test. */
export function createAppStore(client: StewardClient) {
  return create<AppState>()((...args) => ({
    client,
    ...automationsSlice(...args),
    ...automationDetailsSlice(...args),
    ...agendaSlice(...args),
    ...webhooksSlice(...args),
    ...instancesSlice(...args),
    ...runsSlice(...args),
    ...activitySlice(...args),
    ...settingsSlice(...args),
    ...onboardingSlice(...args),
    ...chatsSlice(...args),
    ...runListSlice(...args),
    ...tunnelSlice(...args),
    ...toastsSlice(...args),
    ...notificationsSlice(...args),
    ...approvalsSlice(...args),
    ...remotesSlice(...args),
    ...configSlice(...args),
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;
