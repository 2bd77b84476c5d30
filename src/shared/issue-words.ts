// A validation problem in plain words, the same at every door (API, CLI, UI): "Name is required",
// "Prompt template must be at most 100000 characters", never "name: must not be empty.". The
// schemas' own messages are predicates ("must be an absolute path"); zod's defaults ("Too small:
// expected …") are said again here in the same voice. `code` and `field` stay machine-readable.
import type { z } from 'zod';

// Words a field name holds that read as capitals.
const acronyms: Record<string, string> = { id: 'ID', ids: 'IDs', url: 'URL', urls: 'URLs', usd: 'USD', mcp: 'MCP', api: 'API', acp: 'ACP', ssh: 'SSH', http: 'HTTP', json: 'JSON', env: 'env' };

/** A field path as a person reads it: `promptTemplate` → "Prompt template", `sandbox.network.1` → "Sandbox network, entry 2". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const parts = path.map((segment) => {
    if (typeof segment === 'number') return `, entry ${segment + 1}`;
    // A key a person chose (an environment variable's name, a header) is said as it is, quoted.
    if (!/^[a-z][a-zA-Z]*$/.test(String(segment))) return ` "${String(segment)}"`;
    const words = String(segment)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .toLowerCase()
      .split(' ')
      .filter(Boolean)
      .map((word) => acronyms[word] ?? word);
    return ` ${words.join(' ')}`;
  });
  const text = parts.join('').replace(/^[ ,]+/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const typeWords: Record<string, string> = { int: 'a whole number', number: 'a number', string: 'text', boolean: 'true or false', object: 'an object', array: 'a list', record: 'an object' };

const countOf = (origin: string, amount: number | bigint) => {
  const n = Number(amount);
  if (origin === 'string') return `${n.toLocaleString('en-US')} character${n === 1 ? '' : 's'}`;
  if (origin === 'array' || origin === 'set') return `${n.toLocaleString('en-US')} entr${n === 1 ? 'y' : 'ies'}`;
  return String(amount);
};

const isPredicate = (message: string) => /^(must|is|has|may) /.test(message);

/** What is wrong with the value, as a predicate of its field: "is required", "must be at least 1". */
export function issuePredicate(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  // An empty name or prompt is a missing one, whatever the schema called it.
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) <= 1) return 'is required';
  if (isPredicate(issue.message)) return issue.message.replace(/\.$/, '');
  if (issue.code === 'too_small' && issue.origin === 'array' && Number(issue.minimum) <= 1) return 'must have at least one entry';
  switch (issue.code) {
    case 'too_small':
      return issue.inclusive === false && issue.origin !== 'string' && issue.origin !== 'array' ? `must be more than ${issue.minimum}` : `must be at least ${countOf(issue.origin, issue.minimum)}`;
    case 'too_big':
      return issue.inclusive === false && issue.origin !== 'string' && issue.origin !== 'array' ? `must be less than ${issue.maximum}` : `must be at most ${countOf(issue.origin, issue.maximum)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_type': {
      const got = issue.input === null ? 'null' : Array.isArray(issue.input) ? 'a list' : typeof issue.input;
      return `must be ${typeWords[issue.expected] ?? issue.expected}, not ${got}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected form' : `must be a valid ${acronyms[issue.format] ?? issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return `is not valid (${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1).replace(/\.$/, '')})`;
  }
}

/** The whole sentence: "Name is required.", or for a value with no name, "The request body …". */
export function issueSentence(issue: z.core.$ZodIssue, subject = fieldLabel(issue.path)): string {
  const who = subject || 'The value';
  // A key a person chose that the record refuses: said with the record's name and the rule for a key.
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0];
    const rule = inner ? issuePredicate(inner) : 'is not accepted';
    const record = fieldLabel(issue.path.slice(0, -1)) || 'The value';
    return `${record}: "${String(issue.path.at(-1) ?? '')}" ${rule.replace(/^must be /, 'is not ')}.`;
  }
  // A rule's own sentence ("a field path …") is said after the field it concerns.
  if (issue.code === 'custom' && !isPredicate(issue.message)) return `${who}: ${issue.message.replace(/\.$/, '')}.`;
  return `${who} ${issuePredicate(issue)}.`;
}
