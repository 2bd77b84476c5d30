// Building blocks shared by every resource's schemas, and the shape of an operation.
import { z } from 'zod';

export const Timestamp = z.iso.datetime({ offset: false }).describe('ISO 8601 UTC with milliseconds');

export const Id = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`), `must be a ${prefix}_ identifier`);

/** Control characters (NUL, line breaks, C1), line/paragraph separators, and lone surrogates: not part of a name. */
const notNameText = /[\p{Cc}\p{Cs}\u2028\u2029]/u;

export const Name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .refine((name) => !notNameText.test(name), 'must not hold control characters (such as NUL or a line break)');

/** Environment variables for a process Steward starts (an agent, an MCP server). */
export const EnvVars = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name: letters, digits and _, not starting with a digit'), z.string())
  .describe('Extra environment variables for the process');

export const IdParams = z.strictObject({ id: z.string().min(1) });
export const NoInput = z.strictObject({});
/** For operations that take no query parameters: a query string is ignored, as most APIs do. */
export const NoQuery = z.object({});

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What an API key may do: `admin` everything, `runs` send prompts and read, `read` only GETs. */
export const scopes = ['admin', 'runs', 'read'] as const;
export type Scope = (typeof scopes)[number];
const scopeRank: Record<Scope, number> = { read: 0, runs: 1, admin: 2 };

/** Whether a key of scope `held` may call an operation that needs `needed` (admin ⊃ runs ⊃ read). */
export const scopeAllows = (held: Scope, needed: Scope): boolean => scopeRank[held] >= scopeRank[needed];

/**
 * How far a run's own key (a CLI agent's, or the built-in agent's steward tools) reaches with an
 * operation, instead of a scope: `self`, the calling run itself (its outcome, its questions); `own`,
 * what belongs to the run's own instance (another instance's is answered as absent, lists hold only
 * its own); `prompts`, its own instance, or one whose `acceptsPromptsFrom` names it and that is at
 * least as confined (src/shared/confinement.ts), with the runs it started there. An operation that
 * declares none is refused to a run's key.
 */
export const runKeyReaches = ['self', 'own', 'prompts'] as const;
export type RunKeyReach = (typeof runKeyReaches)[number];

/** An operation as written in the contract; `scope` may be left to defineOperation's rule. */
export interface OperationDefinition<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> {
  name: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{id}` for parameters. */
  path: string;
  summary: string;
  /** false for the few operations that take no API key. */
  auth: boolean;
  status: 200 | 201 | 202 | 204;
  params: P;
  query: Q;
  body: B;
  /** null when the answer has no body (204). */
  output: O | null;
  /** Served by its own route (the trigger), not the generic one; still documented from here. */
  customRoute?: true;
  /** The API-key scope it needs; by default `read` for a GET and `admin` for the rest. */
  scope?: Scope;
  /** How far a run's own key reaches with it (see RunKeyReach); absent: a run's key may not call it. */
  runKey?: RunKeyReach;
  /** The largest body it takes, when more than the API's 1 MiB (a configuration's files). */
  maxBodyBytes?: number;
}

/**
 * One operation of the API. The HTTP routes, the OpenAPI document and the IPC router are derived
 * from these objects; nothing else restates paths, shapes, statuses or scopes.
 */
export interface Operation<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> extends OperationDefinition<P, Q, B, O> {
  scope: Scope;
}

export function defineOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, O extends z.ZodType>(
  operation: OperationDefinition<P, Q, B, O>,
): Operation<P, Q, B, O> {
  return { ...operation, scope: operation.scope ?? (operation.method === 'GET' ? 'read' : 'admin') };
}

export type OperationInput<Op> =
  Op extends Operation<infer P, infer Q, infer B, z.ZodType>
    ? { params: z.output<P>; query: z.output<Q>; body: z.output<B> }
    : never;

export type OperationOutput<Op> = Op extends Operation<z.ZodType, z.ZodType, z.ZodType, infer O> ? (O extends z.ZodType ? z.input<O> : void) : never;
