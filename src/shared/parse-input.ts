// Validates an operation's input with its schemas and turns the first problem into an AppError.
// HTTP routes and the IPC router both call this, so a request is judged the same by either door.
import type { z } from 'zod';
import type { Operation, OperationInput } from './contract/common';
import { AppError, type ErrorCode, errorStatus } from './errors';
import { fieldLabel, issueSentence } from './issue-words';

type Part = 'params' | 'query' | 'body';

function describe(path: PropertyKey[]): string {
  return path.map(String).join('.');
}

/** One validation problem as the API says it: its code, its field and a sentence. */
export function issueError(issue: z.core.$ZodIssue, part: Part): AppError {
  const field = describe(issue.path);
  const subject = field ? fieldLabel(issue.path) : part === 'body' ? 'The request body' : `The ${part}`;
  const wrongPlace = (name: string) => (part === 'query' ? `query parameter "${name}"` : `field "${name}"`);

  switch (issue.code) {
    case 'unrecognized_keys': {
      const name = field ? `${field}.${issue.keys[0]}` : issue.keys[0];
      return new AppError('unknown_field', `Unknown ${wrongPlace(name)}: this operation does not take it (it may be read-only).`, { field: name });
    }
    case 'custom': {
      const code = (issue.params as { code?: string } | undefined)?.code;
      if (code && code in errorStatus) return new AppError(code as ErrorCode, issue.message, { field });
      return new AppError('invalid_field', issueSentence(issue, subject), { field });
    }
    case 'invalid_type': {
      if (!field) {
        return part === 'body'
          ? new AppError('invalid_body', 'The request body must be a JSON object.')
          : new AppError('invalid_query', `The ${part} are not valid.`);
      }
      if (issue.input === undefined) return new AppError('missing_field', `${subject} is required.`, { field });
      return new AppError('invalid_field', issueSentence(issue, subject), { field });
    }
    default:
      return new AppError('invalid_field', issueSentence(issue, subject), { field: field || undefined });
  }
}

function parsePart<S extends z.ZodType>(schema: S, value: unknown, part: Part): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  // An unknown field is the most useful thing to hear about first: it is often a typo.
  const issues = [...result.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
  throw issueError(issues[0], part);
}

export function parseInput<Op extends Operation>(operation: Op, raw: { params?: unknown; query?: unknown; body?: unknown }): OperationInput<Op> {
  const takesBody = operation.method === 'POST' || operation.method === 'PUT' || operation.method === 'PATCH';
  return {
    params: parsePart(operation.params, raw.params ?? {}, 'params'),
    query: parsePart(operation.query, raw.query ?? {}, 'query'),
    body: takesBody ? parsePart(operation.body, raw.body === undefined ? {} : raw.body, 'body') : undefined,
  } as OperationInput<Op>;
}
