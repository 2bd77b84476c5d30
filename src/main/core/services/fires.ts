// Reading fire records: one automation's, newest first.
import { AppError } from '../../../shared/errors';
import type { Fire } from '../../../shared/contract';
import type { ServiceContext } from './context';

const weekMs = 7 * 24 * 60 * 60 * 1000;

export function createFiresService(context: ServiceContext) {
  const { store } = context;
  return {
    list(automationId: string, query: { since?: string | undefined; limit: number }): Fire[] {
      if (!store.automations.get(automationId)) throw new AppError('not_found', `No automation ${automationId}.`);
      const since = query.since ?? new Date(context.now().getTime() - weekMs).toISOString();
      return store.fires.since(automationId, since, query.limit);
    },
  };
}
