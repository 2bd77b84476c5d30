// Settings: the runner's limits, activity and webhook delivery retention, notifications, the
// desktop's launch at login, the agent new instances get, and the MCP servers of the built-in
// agent. Read whole, changed in part.
import { z } from 'zod';
import { AgentConfig } from './agents';
import { NoInput, NoQuery, defineOperation } from './common';
import { McpServerList } from './mcp-servers';

export const notificationPolicies = ['all', 'failures', 'attention', 'none'] as const;
export type NotificationPolicy = (typeof notificationPolicies)[number];

/** Per automation or webhook: 'default' follows the notifications setting. */
export const NotifyOverride = z.enum(['default', ...notificationPolicies]).describe('Notifications for its runs: default (the setting), all, failures, attention (failures and runs whose agent reported needs_attention), none');
export type NotifyOverride = z.infer<typeof NotifyOverride>;

const sections = {
  runner: z.strictObject({
    maxRunning: z.int().min(1).max(32).describe('Runs at the same time across all instances'),
    maxQueued: z.int().min(1).max(1_000_000).nullable().describe('Waiting runs before triggers answer 503; null: no limit'),
    inputWaitSeconds: z.int().min(1).max(3600).describe('How long an agent may wait on a question before its run fails'),
    maxRunDepth: z.int().min(0).max(10).describe('How deep runs may start runs (through Steward tools, or automations and webhooks agents made); 0: agents start none'),
  }),
  activity: z.strictObject({
    retentionLines: z.int().min(1).nullable().describe('Lines kept per instance; null: all'),
    retentionDays: z.int().min(1).nullable().describe('Days of lines kept; null: all'),
  }),
  deliveries: z.strictObject({
    retentionDays: z.int().min(1).nullable().describe('Days of webhook deliveries kept; null: all'),
    retentionPerWebhook: z.int().min(1).nullable().describe('Deliveries kept per webhook, newest first; null: all'),
  }),
  notifications: z.strictObject({
    on: z.enum(notificationPolicies).describe('Which finished runs notify (desktop): all, failures only, attention (failures and needs_attention), none'),
    unhealthyAfter: z.int().min(1).max(100).describe('Consecutive failed runs after which an automation is unhealthy (one notification, and one when it recovers)'),
    linkBaseUrl: z.url({ protocol: /^https?$/ }).nullable().describe("The base of the run links notification channels send (<base>/#/runs/<id>); null: Steward's own URL"),
  }),
  desktop: z.strictObject({
    launchAtLogin: z.boolean(),
  }),
};

export const Settings = z.object({
  runner: sections.runner,
  activity: sections.activity,
  deliveries: sections.deliveries,
  notifications: sections.notifications,
  desktop: sections.desktop,
  defaultAgent: AgentConfig.describe('The agent of instances created without one'),
  mcpServers: McpServerList.describe('MCP servers every built-in (openai) agent run uses'),
});
export type Settings = z.output<typeof Settings>;

export const SettingsPatch = z.strictObject({
  runner: sections.runner.partial().optional(),
  activity: sections.activity.partial().optional(),
  deliveries: sections.deliveries.partial().optional(),
  notifications: sections.notifications.partial().optional(),
  desktop: sections.desktop.partial().optional(),
  defaultAgent: AgentConfig.optional(),
  mcpServers: McpServerList.optional(),
});
export type SettingsPatch = z.output<typeof SettingsPatch>;

export const defaultSettings: Settings = {
  runner: { maxRunning: 2, maxQueued: 1_000, inputWaitSeconds: 10, maxRunDepth: 3 },
  activity: { retentionLines: 100_000, retentionDays: 90 },
  deliveries: { retentionDays: 7, retentionPerWebhook: 1_000 },
  notifications: { on: 'all', unhealthyAfter: 3, linkBaseUrl: null },
  desktop: { launchAtLogin: false },
  defaultAgent: { provider: 'command', preset: 'claude-code' },
  mcpServers: [],
};

const SettingsEnvelope = z.object({ settings: Settings });

export const settingsOperations = {
  'settings.get': defineOperation({
    name: 'settings.get', method: 'GET', path: '/api/settings', summary: 'All settings',
    auth: true, scope: 'admin', status: 200, params: NoInput, query: NoQuery, body: z.undefined(), output: SettingsEnvelope,
  }),
  'settings.update': defineOperation({
    name: 'settings.update', method: 'PATCH', path: '/api/settings', summary: 'Change some settings; omitted ones stay as they are',
    auth: true, status: 200, params: NoInput, query: NoQuery, body: SettingsPatch, output: SettingsEnvelope,
  }),
};
