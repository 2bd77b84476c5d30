// Threads are conversations: which runs continue their thread (chats always; automations and
// webhooks when their memory says "continue"), the CLI session such a run resumes, and the earlier
// turns the built-in agent is sent instead (it has no sessions of its own).
import path from 'node:path';
import type { AgentConfig, Run } from '../../../shared/contract';
import { presets } from '../agents/presets';
import type { Store } from '../store';

/** How much of a thread's earlier turns the built-in agent is sent when it continues a thread. */
const historyBudgetChars = 48_000;

/**
 * Whose own sessions continue a thread: a preset's CLI that can resume, an ACP agent by its command
 * (`acp:gemini`: another ACP agent would not know its sessions); undefined for the rest.
 */
export function sessionKindOf(agent: AgentConfig): string | undefined {
  if (agent.provider === 'acp') return `acp:${path.basename(agent.command)}`;
  return agent.provider === 'command' && agent.preset !== 'custom' && presets[agent.preset].resume ? agent.preset : undefined;
}

export function createConversations(store: Store) {
  function continues(run: Run): boolean {
    if (run.source === 'automation') return store.automations.get(run.sourceId ?? '')?.memory === 'continue';
    if (run.source === 'webhook') return store.webhooks.get(run.sourceId ?? '')?.memory === 'continue';
    return true;
  }

  return {
    /** The CLI session the run resumes, if it continues a thread that has one for its instance's agent. */
    sessionToResume(run: Run): string | null {
      const agent = store.instances.get(run.instanceId)?.agent;
      const kind = agent && sessionKindOf(agent);
      if (!kind || !continues(run)) return null;
      return store.threads.session(run.threadId, run.instanceId, kind) ?? null;
    },
    /** For the built-in agent: the thread's earlier turns when the run continues it. */
    history(run: Run, agent: AgentConfig): { role: 'user' | 'assistant'; content: string }[] {
      return agent.provider === 'openai' && continues(run) ? store.threads.turnsBefore(run.threadId, run.id, historyBudgetChars) : [];
    },
    /** The agent named its session: the run used it, and the thread's next run resumes it. Inside a transaction. */
    keep(run: Run, kind: string, sessionId: string, at: string): void {
      store.runs.setSession(run.id, sessionId);
      store.threads.setSession(run.threadId, run.instanceId, kind, sessionId, at);
    },
    /** The CLI could not resume the session: the thread's next run starts a new conversation. Inside a transaction. */
    forget(run: Run): void {
      store.threads.forgetSession(run.threadId, run.instanceId);
    },
  };
}
