import type { JSONSchemaObject, JSONSchemaProperty, JSONSchemaType } from '../backend/interfaces.js';

/** Arguments checked against a tool's schema (and lightly coerced), or what is wrong with them. */
export type ArgumentCheck = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

/** Deepest nesting checked: a schema (or arguments) deeper than this is taken as is. */
const MAX_DEPTH = 12;

/**
 * Checks a call's arguments against the schema's `required`, `type`, `enum`, nested `properties`,
 * `items` and `anyOf`. Small models often quote numbers and booleans (`"limit": "50"`), so such
 * strings are converted rather than refused. Properties the schema does not name are passed
 * through untouched.
 */
export function validateToolArguments(schema: JSONSchemaObject, raw: unknown): ArgumentCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, problems: ['the arguments must be a JSON object'] };
  }
  const problems: string[] = [];
  const args = checkObject(schema, raw as Record<string, unknown>, '', problems, 0);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, args };
}

/** The object's properties checked (and coerced) into a copy; problems are added to `problems`. */
function checkObject(
  schema: { properties?: Record<string, JSONSchemaProperty>; required?: string[] },
  raw: Record<string, unknown>,
  prefix: string,
  problems: string[],
  depth: number,
): Record<string, unknown> {
  const args: Record<string, unknown> = { ...raw };
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null) {
      problems.push(`"${prefix}${name}" is required (${typeNames(properties[name]) || 'any'})`);
    }
  }
  for (const [name, property] of Object.entries(properties)) {
    const value = args[name];
    if (value === undefined || (value === null && !allows(property, 'null'))) {
      delete args[name];
      continue;
    }
    const checked = checkValue(value, property, `${prefix}${name}`, problems, depth + 1);
    if (checked !== undefined) args[name] = checked;
  }
  return args;
}

/** The value as the property wants it, or undefined (with a problem added) when it cannot be. */
function checkValue(
  value: unknown,
  property: JSONSchemaProperty,
  path: string,
  problems: string[],
  depth: number,
): unknown {
  if (depth > MAX_DEPTH) return value;
  if (property.anyOf?.length) {
    for (const option of property.anyOf) {
      const scratch: string[] = [];
      const checked = checkValue(value, option, path, scratch, depth + 1);
      if (scratch.length === 0) return checked;
    }
    problems.push(
      `"${path}" matches none of the types allowed (${property.anyOf.map(typeNames).join(' | ')})`,
    );
    return undefined;
  }
  const types = typeList(property);
  let coerced: unknown = value;
  if (types.length > 0) {
    coerced = undefined;
    for (const type of types) {
      coerced = coerce(value, type);
      if (coerced !== undefined) break;
    }
    if (coerced === undefined) {
      problems.push(`"${path}" must be ${describeTypes(types)}, got ${JSON.stringify(value)}`);
      return undefined;
    }
  }
  if (property.enum && !property.enum.some((option) => option === coerced)) {
    problems.push(`"${path}" must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    return undefined;
  }
  if (Array.isArray(coerced) && property.items) {
    const items = property.items;
    return coerced.map(
      (item, index) => checkValue(item, items, `${path}[${index}]`, problems, depth + 1) ?? item,
    );
  }
  if (isRecord(coerced) && (property.properties || property.required)) {
    return checkObject(property, coerced, `${path}.`, problems, depth);
  }
  return coerced;
}

/** The value as `type`, or undefined when it cannot be one. */
function coerce(value: unknown, type: JSONSchemaType): unknown {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) return undefined;
      return type === 'integer' && !Number.isInteger(number) ? undefined : number;
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      return typeof value === 'boolean' ? value : undefined;
    case 'array':
      return Array.isArray(value) ? value : undefined;
    case 'object':
      return isRecord(value) ? value : undefined;
    case 'null':
      return value === null ? null : undefined;
    default:
      // A type this checker does not know: the server will judge.
      return value;
  }
}

function typeList(property: JSONSchemaProperty | undefined): JSONSchemaType[] {
  const type = property?.type;
  if (type === undefined) return [];
  return Array.isArray(type) ? type : [type];
}

function allows(property: JSONSchemaProperty, type: JSONSchemaType): boolean {
  return typeList(property).includes(type);
}

function typeNames(property: JSONSchemaProperty | undefined): string {
  return typeList(property).join(' or ');
}

function describeTypes(types: JSONSchemaType[]): string {
  return types
    .map((type) =>
      type === 'integer' ? 'an integer' : type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`,
    )
    .join(' or ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
