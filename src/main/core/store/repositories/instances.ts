// instances table <-> Instance.
import type Database from 'better-sqlite3';
import type { CommitHooks } from '../commit-hooks';
import { AgentConfig, Budget, type Instance, Permissions, SandboxConfig } from '../../../../shared/contract';

interface InstanceRow {
  id: string;
  name: string;
  slug: string;
  status: Instance['status'];
  status_reason: string | null;
  image_tag: string;
  avatar_url: string;
  agent: string;
  sandbox: string;
  budget: string;
  permissions: string;
  accepts_prompts_from: string;
  workspace_dir: string;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface InstanceRecord extends Omit<Instance, 'fqdn' | 'location'> {
  slug: string;
}

function toInstance(row: InstanceRow): Instance {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    statusReason: row.status_reason,
    imageTag: row.image_tag,
    avatarUrl: row.avatar_url,
    fqdn: `${row.slug}.localhost`,
    location: 'local',
    agent: AgentConfig.parse(JSON.parse(row.agent)),
    sandbox: SandboxConfig.parse(JSON.parse(row.sandbox)),
    budget: Budget.parse(JSON.parse(row.budget)),
    permissions: Permissions.parse(JSON.parse(row.permissions)),
    acceptsPromptsFrom: JSON.parse(row.accepts_prompts_from) as string[],
    workspaceDir: row.workspace_dir,
    isDefault: row.is_default === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const columns = 'id, name, slug, status, status_reason, image_tag, avatar_url, agent, sandbox, budget, permissions, accepts_prompts_from, workspace_dir, is_default, created_at, updated_at';

export function createInstancesRepository(db: Database.Database, hooks: CommitHooks) {
  const changed = (instanceId: string) => {
    if (hooks.wanted) hooks.announce({ type: 'instance', instanceId });
  };
  const list = db.prepare<[], InstanceRow>(`SELECT ${columns} FROM instances ORDER BY created_at, id`);
  const get = db.prepare<[string], InstanceRow>(`SELECT ${columns} FROM instances WHERE id = ?`);
  const getDefault = db.prepare<[], InstanceRow>(`SELECT ${columns} FROM instances WHERE is_default = 1`);
  const exists = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM instances WHERE id = ?');
  const budgetOf = db.prepare<[string], Pick<InstanceRow, 'id' | 'name' | 'budget'>>('SELECT id, name, budget FROM instances WHERE id = ?');
  const slugTaken = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM instances WHERE slug = ?');
  const insert = db.prepare(`INSERT INTO instances (${columns})
    VALUES (@id, @name, @slug, @status, @statusReason, @imageTag, @avatarUrl, @agent, @sandbox, @budget, @permissions, @acceptsPromptsFrom, @workspaceDir, @isDefault, @createdAt, @updatedAt)`);
  const update = db.prepare(`UPDATE instances SET name = @name, avatar_url = @avatarUrl, updated_at = @updatedAt WHERE id = @id`);
  const updateAgent = db.prepare<{ id: string; agent: string; sandbox: string; updatedAt: string }>('UPDATE instances SET agent = @agent, sandbox = @sandbox, updated_at = @updatedAt WHERE id = @id');
  const updatePermissions = db.prepare<{ id: string; permissions: string; updatedAt: string }>('UPDATE instances SET permissions = @permissions, updated_at = @updatedAt WHERE id = @id');
  const updateAccepts = db.prepare<{ id: string; acceptsPromptsFrom: string; updatedAt: string }>(
    'UPDATE instances SET accepts_prompts_from = @acceptsPromptsFrom, updated_at = @updatedAt WHERE id = @id',
  );
  const updateBudget = db.prepare<{ id: string; budget: string; updatedAt: string }>('UPDATE instances SET budget = @budget, updated_at = @updatedAt WHERE id = @id');
  const remove = db.prepare<[string]>('DELETE FROM instances WHERE id = ?');
  const setStatus = db.prepare(`UPDATE instances SET status = @status, status_reason = @statusReason, image_tag = coalesce(@imageTag, image_tag), updated_at = @updatedAt WHERE id = @id`);
  const users = db.prepare<[string, string], { count: number }>(
    'SELECT (SELECT count(*) FROM automations WHERE instance_id = ?) + (SELECT count(*) FROM webhooks WHERE instance_id = ?) AS count',
  );

  return {
    list: (): Instance[] => list.all().map(toInstance),
    get: (id: string): Instance | undefined => {
      const row = get.get(id);
      return row && toInstance(row);
    },
    /** Whether it is there, without reading it (asked once per line an agent prints). */
    exists: (id: string): boolean => exists.get(id) !== undefined,
    /** Its name and budget only: what every trigger checks, without reading the rest. */
    budgetOf(id: string): Pick<Instance, 'id' | 'name' | 'budget'> | undefined {
      const row = budgetOf.get(id);
      return row && { id: row.id, name: row.name, budget: Budget.parse(JSON.parse(row.budget)) };
    },
    getDefault: (): Instance | undefined => {
      const row = getDefault.get();
      return row && toInstance(row);
    },
    slugTaken: (slug: string): boolean => slugTaken.get(slug) !== undefined,
    insert(record: InstanceRecord): void {
      insert.run({ ...record, agent: JSON.stringify(record.agent), sandbox: JSON.stringify(record.sandbox), budget: JSON.stringify(record.budget), permissions: JSON.stringify(record.permissions), acceptsPromptsFrom: JSON.stringify(record.acceptsPromptsFrom), isDefault: record.isDefault ? 1 : 0 });
      changed(record.id);
    },
    setStatus(id: string, fields: { status: Instance['status']; statusReason: string | null; imageTag: string | null; updatedAt: string }): void {
      setStatus.run({ id, ...fields });
      changed(id);
    },
    update(id: string, fields: { name: string; avatarUrl: string; updatedAt: string }): void {
      update.run({ id, ...fields });
      changed(id);
    },
    /** What runs the instance's agent: the agent and its sandbox, set together. */
    setAgent(id: string, agent: Instance['agent'], sandbox: Instance['sandbox'], updatedAt: string): void {
      updateAgent.run({ id, agent: JSON.stringify(agent), sandbox: JSON.stringify(sandbox), updatedAt });
      changed(id);
    },
    setPermissions(id: string, permissions: Instance['permissions'], updatedAt: string): void {
      updatePermissions.run({ id, permissions: JSON.stringify(permissions), updatedAt });
      changed(id);
    },
    setAcceptsPromptsFrom(id: string, acceptsPromptsFrom: string[], updatedAt: string): void {
      updateAccepts.run({ id, acceptsPromptsFrom: JSON.stringify(acceptsPromptsFrom), updatedAt });
      changed(id);
    },
    setBudget(id: string, budget: Instance['budget'], updatedAt: string): void {
      updateBudget.run({ id, budget: JSON.stringify(budget), updatedAt });
      changed(id);
    },
    delete: (id: string): void => void remove.run(id),
    /** How many automations and webhooks target the instance. */
    userCount: (id: string): number => users.get(id, id)?.count ?? 0,
  };
}

export type InstancesRepository = ReturnType<typeof createInstancesRepository>;
