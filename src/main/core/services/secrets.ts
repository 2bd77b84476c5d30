// Named secrets: sealed with the secret box before they reach SQLite, opened only for the agent
// that names them. The API lists names and dates, never a value.
import { type Secret, SecretName } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { SecretBox } from '../secrets';
import type { ServiceContext } from './context';
import { resealed } from '../unchanged';

export function createSecretsService(context: ServiceContext, box: SecretBox) {
  const { store } = context;

  return {
    list: (): Secret[] => store.secrets.list(),

    put(name: string, value: string): Secret {
      if (!SecretName.safeParse(name).success) {
        throw new AppError('invalid_field', 'A secret name is 1 to 100 letters, digits, dots, dashes or underscores.', { field: 'name' });
      }
      const stored = store.secrets.sealed(name);
      const sealed = resealed(box, value, stored);
      // The same value again changes nothing, not even updatedAt.
      if (sealed !== stored) store.secrets.put(name, sealed, context.now().toISOString());
      return store.secrets.get(name)!;
    },

    delete(name: string): void {
      if (!store.secrets.delete(name)) throw new AppError('not_found', `No secret ${name}.`);
    },

    /** The value, for an agent about to run; undefined when none is stored under that name. */
    reveal(name: string): string | undefined {
      const sealed = store.secrets.sealed(name);
      return sealed === undefined ? undefined : box.open(sealed);
    },
  };
}

export type SecretsService = ReturnType<typeof createSecretsService>;
