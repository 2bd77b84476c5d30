// The migrations, in order. Listed by hand: a bundle cannot scan a folder.
import createTables from './0001_create_tables';
import indexActiveRuns from './0002_index_active_runs';
import addRunStderr from './0003_add_run_stderr';
import indexRunQueue from './0004_index_run_queue';
import createSecrets from './0005_create_secrets';
import activitySequence from './0006_activity_sequence';
import createWebSessions from './0007_create_web_sessions';
import addNotifyOverride from './0008_add_notify_override';
import threadSessions from './0009_thread_sessions';
import webhookDeliveries from './0010_webhook_deliveries';
import apiKeyScopes from './0011_api_key_scopes';
import runLineage from './0012_run_lineage';
import notificationChannels from './0013_notification_channels';
import instanceSandbox from './0014_instance_sandbox';
import automationReliability from './0015_automation_reliability';
import runRetries from './0016_run_retries';
import approvals from './0017_approvals';
import attentionChannels from './0018_attention_channels';
import notifyApprovals from './0019_notify_approvals';
import remotes from './0020_remotes';
import instanceAcceptsPrompts from './0021_instance_accepts_prompts';
import backlogIndexes from './0022_backlog_indexes';
import indexMissedFires from './0023_index_missed_fires';
import eventSources from './0024_event_sources';
import configOrigins from './0025_config_origins';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, name: '0001_create_tables', sql: createTables },
  { version: 2, name: '0002_index_active_runs', sql: indexActiveRuns },
  { version: 3, name: '0003_add_run_stderr', sql: addRunStderr },
  { version: 4, name: '0004_index_run_queue', sql: indexRunQueue },
  { version: 5, name: '0005_create_secrets', sql: createSecrets },
  { version: 6, name: '0006_activity_sequence', sql: activitySequence },
  { version: 7, name: '0007_create_web_sessions', sql: createWebSessions },
  { version: 8, name: '0008_add_notify_override', sql: addNotifyOverride },
  { version: 9, name: '0009_thread_sessions', sql: threadSessions },
  { version: 10, name: '0010_webhook_deliveries', sql: webhookDeliveries },
  { version: 11, name: '0011_api_key_scopes', sql: apiKeyScopes },
  { version: 12, name: '0012_run_lineage', sql: runLineage },
  { version: 13, name: '0013_notification_channels', sql: notificationChannels },
  { version: 14, name: '0014_instance_sandbox', sql: instanceSandbox },
  { version: 15, name: '0015_automation_reliability', sql: automationReliability },
  { version: 16, name: '0016_run_retries', sql: runRetries },
  { version: 17, name: '0017_approvals', sql: approvals },
  { version: 18, name: '0018_attention_channels', sql: attentionChannels },
  { version: 19, name: '0019_notify_approvals', sql: notifyApprovals },
  { version: 20, name: '0020_remotes', sql: remotes },
  { version: 21, name: '0021_instance_accepts_prompts', sql: instanceAcceptsPrompts },
  { version: 22, name: '0022_backlog_indexes', sql: backlogIndexes },
  { version: 23, name: '0023_index_missed_fires', sql: indexMissedFires },
  { version: 24, name: '0024_event_sources', sql: eventSources },
  { version: 25, name: '0025_config_origins', sql: configOrigins },
];
