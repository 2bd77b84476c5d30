// Instances: named agents. Lifecycle and probing come with the agent runner; here they are records.
import path from 'node:path';
import { type Instance, defaultAgent, InstanceCreate, InstancePatch } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { newId } from '../ids';
import { generatedAvatarUrl } from './avatar';
import { type ServiceContext, isoNow } from './context';
import type { z } from 'zod';

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug || 'agent';
}

export function createInstancesService(context: ServiceContext) {
  const { store } = context;

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

  function create(input: z.output<typeof InstanceCreate>, isDefault = false): Instance {
    return store.transaction(() => {
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
        agent: input.agent ?? defaultAgent,
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
    return store.instances.getDefault() ?? create({ name: 'Steward' }, true);
  }

  return {
    list: (): Instance[] => store.instances.list(),
    get,
    create: (input: z.output<typeof InstanceCreate>) => create(input),

    update(id: string, patch: z.output<typeof InstancePatch>): Instance {
      return store.transaction(() => {
        const current = get(id);
        const name = patch.name ?? current.name;
        // An empty avatarUrl, or a rename of an instance still wearing its generated avatar, regenerates it.
        const wearsGenerated = current.avatarUrl === generatedAvatarUrl(current.name);
        const avatarUrl =
          patch.avatarUrl === '' || (patch.avatarUrl === undefined && wearsGenerated)
            ? generatedAvatarUrl(name)
            : (patch.avatarUrl ?? current.avatarUrl);
        store.instances.update(id, { name, avatarUrl, updatedAt: isoNow(context) });
        return get(id);
      });
    },

    delete(id: string): void {
      store.transaction(() => {
        const instance = get(id);
        if (instance.isDefault) throw new AppError('default_instance', 'The default instance cannot be deleted.');
        const users = store.instances.userCount(id);
        if (users > 0) {
          throw new AppError('instance_in_use', `${users} automation(s) or webhook(s) target this instance; point them elsewhere or delete them first.`);
        }
        store.instances.delete(id);
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
