// The whole contract: every operation by name. Routes, OpenAPI and IPC iterate over this.
import { activityOperations } from './activity';
import { agendaOperations } from './agenda';
import { approvalOperations } from './approvals';
import { agentOperations } from './agents';
import { apiKeyOperations } from './api-keys';
import { automationOperations } from './automations';
import { configOperations } from './config';
import { spendOperations } from './budgets';
import { deliveryOperations } from './deliveries';
import { fireOperations } from './fires';
import { healthOperations } from './health';
import { instanceOperations } from './instances';
import { notificationOperations } from './notifications';
import { outcomeOperations } from './outcomes';
import { remoteOperations } from './remotes';
import { runOperations } from './runs';
import { secretOperations } from './secrets';
import { settingsOperations } from './settings';
import { tunnelOperations } from './tunnel';
import { webhookOperations } from './webhooks';

export const operations = {
  ...healthOperations,
  ...automationOperations,
  ...fireOperations,
  ...spendOperations,
  ...agendaOperations,
  ...webhookOperations,
  ...deliveryOperations,
  ...instanceOperations,
  ...agentOperations,
  ...runOperations,
  ...outcomeOperations,
  ...activityOperations,
  ...apiKeyOperations,
  ...secretOperations,
  ...settingsOperations,
  ...tunnelOperations,
  ...notificationOperations,
  ...approvalOperations,
  ...remoteOperations,
  ...configOperations,
};

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export * from './activity';
export * from './agenda';
export * from './approvals';
export * from './agents';
export * from './api-keys';
export * from './automations';
export * from './budgets';
export * from './common';
export * from './config';
export * from './deliveries';
export * from './events';
export * from './fires';
export * from './health';
export * from './instances';
export * from './mcp-servers';
export * from './notifications';
export * from './outcomes';
export * from './remotes';
export * from './retries';
export * from './runs';
export * from './sandbox';
export * from './secrets';
export * from './settings';
export * from './triggers';
export * from './tunnel';
export * from './webhook-rules';
export * from './webhooks';
