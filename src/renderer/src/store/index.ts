// The renderer's one store, built from slices. Actions call the client (lib/api.ts); components
// read the store and call actions, never the transport.
import { create, type StateCreator } from 'zustand';
import type { StewardClient } from '../lib/api';
import { type ActivitySlice, activitySlice } from './activity';
import { type AutomationsSlice, automationsSlice } from './automations';
import { type ChatsSlice, chatsSlice } from './chats';
import { type InstancesSlice, instancesSlice } from './instances';
import { type NotificationsSlice, notificationsSlice } from './notifications';
import { type OnboardingSlice, onboardingSlice } from './onboarding';
import { type RunListSlice, runListSlice } from './run-list';
import { type RunsSlice, runsSlice } from './runs';
import { type SettingsSlice, settingsSlice } from './settings';
import { type ToastsSlice, toastsSlice } from './toasts';
import { type TunnelSlice, tunnelSlice } from './tunnel';
import { type WebhooksSlice, webhooksSlice } from './webhooks';

export interface ClientSlice {
  client: StewardClient;
}

export type AppState = ClientSlice & AutomationsSlice & WebhooksSlice & InstancesSlice & RunsSlice & ActivitySlice & SettingsSlice & OnboardingSlice & ChatsSlice & RunListSlice & TunnelSlice & ToastsSlice & NotificationsSlice;
export type Slice<T> = StateCreator<AppState, [], [], T>;

/** A fresh store on a client: one per window, and one per test. */
export function createAppStore(client: StewardClient) {
  return create<AppState>()((...args) => ({
    client,
    ...automationsSlice(...args),
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
  }));
}

export type AppStore = ReturnType<typeof createAppStore>;
