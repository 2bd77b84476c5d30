// Instances: named agents and their lifecycle. A new or started instance is `provisioning` while
// its workspace is made and its agent probed, then `running` (with the probed image tag) or
// `error` (with the reason); `stopped` takes no runs (they wait in the queue) until started. A
// changed agent is probed again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { type AgentConfig, type Instance, bypassPermissions, InstanceCreate, InstancePatch, type SandboxConfig, defaultSandbox } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { askProblem } from '../../../shared/agent-permissions';
import { withoutEnvValues } from '../../../shared/env-values';
import { type ProbePlace, type ProbeResult, probeAgent } from '../agents/probe';
import { agentHomeOf } from '../sandbox/agent-state';
import { newId } from '../ids';
import { readSettings } from '../settings';
import { generatedAvatarUrl } from './avatar';
import { sameValue } from '../unchanged';
import { type ServiceContext, isoNow } from './context';
import type { z } from 'zod';

/** A name's Latin letters and digits, lowercase, joined by dashes, at most `max` long; empty when it has none. */
export function slugPart(name: string, max = 40): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
}

export function slugify(name: string): string {
  return slugPart(name) || 'agent';
}

/** 400 for `permissions: ask` on an agent that cannot ask. */
function assertCanAsk(agent: AgentConfig): void {
  const problem = askProblem(agent);
  if (problem) throw new AppError('invalid_field', problem, { field: 'permissions' });
}

/** The instances whose runs may prompt `selfId`: each one of this Steward's others, once. */
function checkedSenders(store: ServiceContext['store'], ids: readonly string[], selfId: string | undefined): string[] {
  for (const [index, id] of ids.entries()) {
    if (id === selfId) throw new AppError('invalid_field', `acceptsPromptsFrom names the instance itself (${id}): its own runs always reach it.`, { field: `acceptsPromptsFrom.${index}` });
    if (!store.instances.get(id)) throw new AppError('invalid_field', `acceptsPromptsFrom names no instance of this Steward: ${id}.`, { field: `acceptsPromptsFrom.${index}` });
  }
  return [...new Set(ids)];
}

/** The agent in a few words, for the instance's activity. */
function describeAgent(agent: AgentConfig): string {
  if (agent.provider === 'openai') return `${agent.model} at ${agent.baseUrl}`;
  if (agent.provider === 'acp') return `the ACP agent ${[agent.command, ...(agent.args ?? [])].join(' ')}`;
  if (agent.preset !== 'custom') return agent.preset;
  return `the command ${[agent.command ?? '', ...(agent.args ?? [])].join(' ')}`;
}

/** "Sandbox on", "Sandbox off: the agent runs as you", or "Sandbox changed: network api.example.com". */
function describeSandboxChange(before: SandboxConfig, after: SandboxConfig): string {
  if (after.mode === 'off') return 'Sandbox off: the agent runs as you, with your files and network';
  if (before.mode === 'off') return 'Sandbox on';
  const lists = (['network', 'readAllow', 'readDeny', 'writeAllow'] as const).filter((list) => after[list].join('\n') !== before[list].join('\n'));
  return `Sandbox changed: ${lists.map((list) => `${list} ${after[list].join(', ') || '(none)'}`).join('; ')}`;
}

export interface InstanceLifecycleDeps {
  revealSecret: (name: string) => string | undefined;
  /** Cancels a running run. */
  cancelRun: (runId: string) => void;
  /** Where the instance's agent is probed: an empty private folder, in the instance's sandbox when it has one. */
  openProbePlace: (instance: Instance) => Promise<ProbePlace>;
}

export function createInstancesService(context: ServiceContext, deps: InstanceLifecycleDeps) {
  const { store } = context;
  // Bumped by every start and stop: a probe that finishes after its instance was stopped or
  // started again says nothing.
  const generations = new Map<string, number>();
  const probing = new Set<Promise<void>>();

  function uniqueSlug(name: string): string {
    const base = slugify(name);
    let slug = base;
    for (let n = 2; store.instances.slugTaken(slug); n++) slug = `${base}-${n}`;
    return slug;
  }

  function get(id: string): Instance {
    const instance = store.instances.get(id);
    if (!instance) throw new AppError('not_found', `No instance ${id}.`);
    return instance;
  }

  function setStatus(id: string, status: Instance['status'], statusReason: string | null, imageTag: string | null, line?: string): void {
    store.transaction(() => {
      if (!store.instances.get(id)) return;
      const at = isoNow(context);
      store.instances.setStatus(id, { status, statusReason, imageTag, updatedAt: at });
      if (line !== undefined) {
        store.activity.append({ instanceId: id, runId: null, kind: 'system', label: '', displayText: line, raw: JSON.stringify({ type: 'instance.status', status, statusReason, imageTag }), timestamp: at });
      }
    });
  }

  /** Makes the workspace and probes the agent; resolves once the instance is running or in error. */
  async function provision(id: string): Promise<void> {
    const generation = (generations.get(id) ?? 0) + 1;
    generations.set(id, generation);
    const current = () => generations.get(id) === generation && store.instances.get(id) !== undefined;
    const before = get(id);
    setStatus(id, 'provisioning', null, null);
    const instance = get(id);
    let result: ProbeResult;
    try {
      await fs.mkdir(instance.workspaceDir, { recursive: true, mode: 0o700 });
      result = await probeAgent(instance.agent, { sandbox: instance.sandbox, openPlace: () => deps.openProbePlace(instance), revealSecret: deps.revealSecret });
    } catch (error) {
      result = { ok: false, reason: `The workspace ${instance.workspaceDir} cannot be made: ${(error as Error).message}` };
    }
    if (!current()) return;
    // A probe that finds what the last one found (every start of Steward probes) adds no line.
    const same = result.ok ? before.status === 'running' && before.imageTag === result.imageTag : before.status === 'error' && before.statusReason === result.reason;
    if (result.ok) setStatus(id, 'running', null, result.imageTag, same ? undefined : `Ready: ${result.imageTag}`);
    else setStatus(id, 'error', result.reason, null, same ? undefined : `Not ready: ${result.reason}`);
  }

  function cancelRunningRun(id: string): boolean {
    const running = store.runs.running().find((run) => run.instanceId === id);
    if (running) deps.cancelRun(running.id);
    return running !== undefined;
  }

  function stop(id: string): Instance {
    get(id);
    generations.set(id, (generations.get(id) ?? 0) + 1);
    setStatus(id, 'stopped', null, null, 'Stopped: queued runs wait until it starts again');
    cancelRunningRun(id);
    return get(id);
  }

  /** Provisions in the background; `idle()` waits for every such probe. */
  function provisionLater(id: string): Promise<void> {
    const work = provision(id)
      .catch((error: unknown) => context.logger.error({ err: error, instanceId: id }, 'provisioning failed'))
      .finally(() => probing.delete(work));
    probing.add(work);
    return work;
  }

  function start(id: string): Instance {
    if (get(id).status !== 'running') void provisionLater(id);
    return get(id);
  }

  function create(input: z.output<typeof InstanceCreate>, isDefault = false): Instance {
    const instance = insert(input, isDefault);
    store.afterCommit(() => void provisionLater(instance.id));
    return instance;
  }

  function insert(input: z.output<typeof InstanceCreate>, isDefault: boolean): Instance {
    return store.transaction(() => {
      if (input.permissions?.mode === 'ask') assertCanAsk(input.agent ?? readSettings(store).defaultAgent);
      const now = isoNow(context);
      const slug = uniqueSlug(input.name);
      const id = newId('ins');
      store.instances.insert({
        id,
        name: input.name,
        slug,
        status: 'provisioning',
        statusReason: null,
        imageTag: '',
        avatarUrl: input.avatarUrl || generatedAvatarUrl(input.name),
        agent: input.agent ?? readSettings(store).defaultAgent,
        sandbox: input.sandbox ?? defaultSandbox,
        budget: input.budget ?? {},
        permissions: input.permissions ?? bypassPermissions,
        acceptsPromptsFrom: checkedSenders(store, input.acceptsPromptsFrom ?? [], undefined),
        workspaceDir: input.workspaceDir ?? path.join(context.dataDir, 'workspaces', slug),
        isDefault,
        createdAt: now,
        updatedAt: now,
      });
      return get(id);
    });
  }

  /** The instance automations and webhooks use when they name none; made on first start. */
  function ensureDefault(): Instance {
    return store.instances.getDefault() ?? insert({ name: 'Steward' }, true);
  }

  return {
    list: (): Instance[] => store.instances.list(),
    get,
    create: (input: z.output<typeof InstanceCreate>) => create(input),

    /**
     * A new agent is probed again (provisioning, then running or error) unless the instance is
     * stopped: then at its next start. A run already running keeps the agent it started with;
     * queued runs wait for the probe and run on the new agent.
     */
    update(id: string, patch: z.output<typeof InstancePatch>): Instance {
      store.transaction(() => {
        const current = get(id);
        const name = patch.name ?? current.name;
        // An empty avatarUrl, or a rename of an instance still wearing its generated avatar, regenerates it.
        const wearsGenerated = current.avatarUrl === generatedAvatarUrl(current.name);
        const avatarUrl =
          patch.avatarUrl === '' || (patch.avatarUrl === undefined && wearsGenerated)
            ? generatedAvatarUrl(name)
            : (patch.avatarUrl ?? current.avatarUrl);
        const agent = patch.agent ?? current.agent;
        const sandbox = patch.sandbox ?? current.sandbox;
        const newAgent = !sameValue(agent, current.agent);
        const newSandbox = !sameValue(sandbox, current.sandbox);
        const budget = patch.budget ?? current.budget;
        const newBudget = !sameValue(budget, current.budget);
        const permissions = patch.permissions ?? current.permissions;
        const newPermissions = !sameValue(permissions, current.permissions);
        if (permissions.mode === 'ask' && (newPermissions || newAgent)) assertCanAsk(agent);
        const senders = patch.acceptsPromptsFrom === undefined ? current.acceptsPromptsFrom : checkedSenders(store, patch.acceptsPromptsFrom, id);
        const newSenders = senders.join() !== current.acceptsPromptsFrom.join();
        // An update that changes nothing writes nothing: updatedAt stays, no change is announced.
        if (name === current.name && avatarUrl === current.avatarUrl && !newAgent && !newSandbox && !newBudget && !newPermissions && !newSenders) return;
        const at = isoNow(context);
        store.instances.update(id, { name, avatarUrl, updatedAt: at });
        if (newBudget) store.instances.setBudget(id, budget, at);
        if (newPermissions) store.instances.setPermissions(id, permissions, at);
        if (newSenders) store.instances.setAcceptsPromptsFrom(id, senders, at);
        if (!newAgent && !newSandbox) return;
        store.instances.setAgent(id, agent, sandbox, at);
        const said = [newAgent && `Agent changed to ${describeAgent(agent)}`, newSandbox && describeSandboxChange(current.sandbox, sandbox)].filter(Boolean).join('; ');
        store.activity.append({ instanceId: id, runId: null, kind: 'system', label: '', displayText: said, raw: JSON.stringify({ type: 'instance.agent', agent: withoutEnvValues(agent), sandbox }), timestamp: at });
        if (current.status !== 'stopped') store.afterCommit(() => void provisionLater(id));
      });
      return get(id);
    },

    start,
    stop,
    restart(id: string): Instance {
      stop(id);
      return start(id);
    },

    /** Probes every instance that is not stopped (at start: agents may have been installed or removed meanwhile). */
    provisionAll(): Promise<void[]> {
      return Promise.all(store.instances.list().filter((instance) => instance.status !== 'stopped').map((instance) => provisionLater(instance.id)));
    },

    /** Resolves once no instance is being probed. */
    async idle(): Promise<void> {
      while (probing.size > 0) await Promise.all(probing);
    },

    delete(id: string, force = false): void {
      store.transaction(() => {
        const instance = get(id);
        if (!force && store.runs.running().some((run) => run.instanceId === id)) {
          throw new AppError('instance_busy', 'A run is running on this instance; stop the instance first, or delete with ?force=true to cancel the run.');
        }
        if (instance.isDefault) throw new AppError('default_instance', 'The default instance cannot be deleted.');
        const users = store.instances.userCount(id);
        if (users > 0) {
          throw new AppError('instance_in_use', `${users} automation(s) or webhook(s) target this instance; point them elsewhere or delete them first.`);
        }
        if (force) cancelRunningRun(id);
        generations.delete(id);
        store.instances.delete(id);
        // Nobody may prompt through an id that names nothing (ids are never reused, but lists stay tidy).
        for (const other of store.instances.list()) {
          if (other.acceptsPromptsFrom.includes(id)) store.instances.setAcceptsPromptsFrom(other.id, other.acceptsPromptsFrom.filter((each) => each !== id), isoNow(context));
        }
        // Its own CLI state (sessions, and the copies of the user's login) goes with it.
        store.afterCommit(() => void fs.rm(agentHomeOf(context.dataDir, id), { recursive: true, force: true }).catch(() => {}));
      });
    },

    ensureDefault,

    /** The instance a new automation or webhook targets: the one named, or the default. */
    target(instanceId: string | undefined): Instance {
      if (instanceId === undefined) return ensureDefault();
      const instance = store.instances.get(instanceId);
      if (!instance) throw new AppError('invalid_field', `No instance ${instanceId}.`, { field: 'instanceId' });
      return instance;
    },
  };
}

export type InstancesService = ReturnType<typeof createInstancesService>;
