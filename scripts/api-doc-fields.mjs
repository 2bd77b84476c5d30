// How docs/api.md shows a JSON Schema (as the OpenAPI document gives it): a type in words, the
// fields as table rows (nested ones as `a.b`, list items as `list[].c`, one row group per variant of
// a union), and the shapes that recur named once (Types) and linked wherever they appear.
import { z } from 'zod';
import * as contract from '../src/shared/contract/index.ts';

/**
 * The JSON Schema subset zod emits: type, properties, required, items, anyOf/oneOf, enum, const,
 * description, default, format, pattern, min/max lengths, values and items, additionalProperties,
 * propertyNames. A row of a field table is {field, type, required, description}.
 */

/**
 * Shapes that recur: described once under Types and linked wherever they appear. Request-side
 * shapes are shown as written (with their defaults), resources as read.
 */
export const namedTypes = [
  ['Automation', contract.Automation, 'output'],
  ['SchedulerState', contract.SchedulerState, 'output'],
  ['Webhook', contract.Webhook, 'output'],
  ['FilterCondition', contract.FilterCondition, 'input'],
  ['RunRef', contract.RunRef, 'output'],
  ['TriggerOutcome', contract.TriggerOutcome, 'output'],
  ['DeliverySummary', contract.DeliverySummary, 'output'],
  ['Delivery', contract.Delivery, 'output'],
  ['Instance', contract.Instance, 'output'],
  ['AgentConfig', contract.AgentConfig, 'input'],
  ['SandboxConfig', contract.SandboxConfig, 'input'],
  ['McpServerConfig', contract.McpServerConfig, 'input'],
  ['Run', contract.Run, 'output'],
  ['RunQueue', contract.RunQueue, 'output'],
  ['Message', contract.Message, 'output'],
  ['Thread', contract.Thread, 'output'],
  ['ThreadSummary', contract.ThreadSummary, 'output'],
  ['ActivityEvent', contract.ActivityEvent, 'output'],
  ['ApiKey', contract.ApiKey, 'output'],
  ['Secret', contract.Secret, 'output'],
  ['Settings', contract.Settings, 'output'],
  ['TunnelState', contract.TunnelState, 'output'],
  ['NotificationChannel', contract.NotificationChannel, 'output'],
  ['NotificationDelivery', contract.NotificationDelivery, 'output'],
];

export function toSchema(schema, io) {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

/** A schema as compared with the named types: its own description is the use site's, not the type's. */
const fingerprint = (schema) => {
  const { description: _description, ...rest } = schema;
  return JSON.stringify(rest);
};

const typeByFingerprint = new Map();
for (const [name, schema] of namedTypes) {
  for (const io of ['output', 'input']) {
    const key = fingerprint(toSchema(schema, io));
    if (!typeByFingerprint.has(key)) typeByFingerprint.set(key, name);
  }
}

export const typeAnchor = (name) => `type-${name.toLowerCase()}`;
export const code = (value) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
};
/** Table cell text: pipes escaped, and outside code spans `<` and `>` too (`<base>` is an HTML tag). */
export const cell = (text) =>
  text
    .replace(/\n/g, ' ')
    .split(/(`+[^`]*`+)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('')
    .replace(/\|/g, '\\|');

export function namedType(schema, except) {
  const name = typeByFingerprint.get(fingerprint(schema));
  return name === except ? undefined : name;
}

export const variantsOf = (schema) => schema.oneOf ?? schema.anyOf;
const isNull = (schema) => schema.type === 'null';

/** The property every variant fixes with a const (`provider`, `transport`), if there is one. */
function discriminator(variants) {
  const [first] = variants;
  return Object.keys(first?.properties ?? {}).find((key) => variants.every((variant) => variant.properties?.[key]?.const !== undefined));
}

function range(low, high, unit = '') {
  const safe = (value) => (value !== undefined && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined);
  const [from, to] = [safe(low), safe(high)];
  if (from !== undefined && to !== undefined) return from === to ? `exactly ${from}${unit}` : `${from}–${to}${unit}`;
  if (from === 1 && unit === ' characters') return 'not empty';
  if (from !== undefined) return `at least ${from}${unit}`;
  if (to !== undefined) return `at most ${to}${unit}`;
  return undefined;
}

const idPattern = /^\^(\w+)_\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/;

export function typeText(schema, except) {
  const named = namedType(schema, except);
  if (named) return `[${named}](#${typeAnchor(named)})`;
  const variants = variantsOf(schema);
  if (variants) {
    const present = variants.filter((variant) => !isNull(variant));
    const nullable = present.length < variants.length;
    const key = present.length > 1 ? discriminator(present) : undefined;
    const text = key
      ? `object, by ${code(key)}: ${present.map((variant) => code(variant.properties[key].const)).join(', ')}`
      : present.map((variant) => typeText(variant)).join(' or ');
    return nullable ? `${text} or null` : text;
  }
  const parts = [];
  if (Array.isArray(schema.type)) parts.push(schema.type.map((type) => typeText({ ...schema, type, default: undefined })).join(' or '));
  else if (schema.const !== undefined) parts.push(code(schema.const));
  else if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(', ')}`);
  else if (schema.type === 'string') {
    const id = schema.pattern ? idPattern.exec(schema.pattern) : null;
    if (id) parts.push(`id (${code(`${id[1]}_…`)})`);
    else if (schema.format === 'date-time') parts.push('date-time');
    else if (schema.format === 'uri') parts.push('URL');
    else parts.push('string');
    parts.push(range(schema.minLength, schema.maxLength, ' characters'));
    if (schema.pattern && !id && !schema.format) parts.push(`matching ${code(schema.pattern)}`);
  } else if (schema.type === 'integer' || schema.type === 'number') {
    parts.push(schema.type, range(schema.minimum, schema.maximum));
  } else if (schema.type === 'array') {
    const items = schema.items ?? {};
    const plainObject = items.type === 'object' && items.properties && !namedType(items);
    const itemText = plainObject ? 'objects' : typeText(items);
    parts.push(`array of ${itemText.includes(', ') && !itemText.startsWith('one of') ? `(${itemText})` : itemText}`, range(schema.minItems, schema.maxItems, ' items'));
  } else if (schema.type === 'object') {
    const values = schema.additionalProperties;
    if (!schema.properties && values && typeof values === 'object') parts.push(`map of ${schema.propertyNames?.pattern ? `names matching ${code(schema.propertyNames.pattern)}` : 'string'} to ${typeText(values)}`);
    else parts.push('object');
  } else if (schema.type === 'boolean' || schema.type === 'null') {
    parts.push(schema.type);
  } else {
    parts.push('any JSON value');
  }
  if (schema.default !== undefined) parts.push(`default ${code(schema.default)}`);
  return parts.filter(Boolean).join(', ');
}

/** The rows of a schema's fields, nested ones as `a.b` and `list[].c`; named types stop the descent. */
export function fieldRows(schema, prefix, rows, except, qualifier = '') {
  if (namedType(schema, except)) return rows;
  const variants = variantsOf(schema)?.filter((variant) => !isNull(variant));
  if (variants && variants.length > 0) {
    const key = variants.length > 1 ? discriminator(variants) : undefined;
    if (key) {
      const values = variants.map((variant) => code(variant.properties[key].const)).join(', ');
      rows.push({ field: prefix ? `${prefix}.${key}` : key, type: `one of ${values}`, required: true, description: 'Which of the fields below apply' });
    }
    variants.forEach((variant, index) => {
      const which = key ? `${key} ${code(variant.properties[key].const)}` : variants.length > 1 ? (variant.description ?? `variant ${index + 1}`) : '';
      fieldRows(variant, prefix, rows, undefined, which ? `(${which}) ` : qualifier);
    });
    return rows;
  }
  if (schema.type === 'array' && schema.items) return fieldRows(schema.items, `${prefix}[]`, rows, undefined, qualifier);
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const field = prefix ? `${prefix}.${name}` : name;
    const fixed = property.const !== undefined && qualifier.includes(code(property.const));
    if (fixed) continue;
    rows.push({ field, type: typeText(property), required: required.has(name), description: `${qualifier}${property.description ?? ''}`.trim() });
    fieldRows(property, field, rows, undefined, qualifier);
  }
  return rows;
}

export function table(rows, requiredHeading = 'required') {
  if (rows.length === 0) return [];
  return [
    `| field | type | ${requiredHeading} | description |`,
    '|---|---|---|---|',
    ...rows.map((row) => `| ${cell(code(row.field))} | ${cell(row.type)} | ${row.required ? 'yes' : 'no'} | ${cell(row.description)} |`),
    '',
  ];
}
