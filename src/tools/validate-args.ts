import type { JSONSchemaObject, JSONSchemaProperty } from '../backend/interfaces.js';

/** Arguments checked against a tool's schema (and lightly coerced), or what is wrong with them. */
export type ArgumentCheck = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] };

/**
 * Checks a call's arguments against the schema's `required`, `type` and `enum`. Small models often
 * quote numbers and booleans (`"limit": "50"`), so such strings are converted rather than refused.
 * Properties the schema does not name are passed through untouched.
 */
export function validateToolArguments(schema: JSONSchemaObject, raw: unknown): ArgumentCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, problems: ['the arguments must be a JSON object'] };
  }
  const args: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const problems: string[] = [];
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null) {
      problems.push(`"${name}" is required (${schema.properties[name]?.type ?? 'any'})`);
    }
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = args[name];
    if (value === undefined || value === null) {
      delete args[name];
      continue;
    }
    const coerced = coerce(value, property);
    if (coerced === undefined) {
      problems.push(`"${name}" must be ${describe(property)}, got ${JSON.stringify(value)}`);
      continue;
    }
    if (property.enum && !property.enum.includes(coerced as string | number)) {
      problems.push(`"${name}" must be one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`);
      continue;
    }
    args[name] = coerced;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, args };
}

/** The value as the property's type, or undefined when it cannot be one. */
function coerce(value: unknown, property: JSONSchemaProperty): unknown {
  switch (property.type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) return undefined;
      return property.type === 'integer' && !Number.isInteger(number) ? undefined : number;
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      return typeof value === 'boolean' ? value : undefined;
    case 'array':
      return Array.isArray(value) ? value : undefined;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  }
}

function describe(property: JSONSchemaProperty): string {
  return property.type === 'integer'
    ? 'an integer'
    : property.type === 'array'
      ? 'an array'
      : `a ${property.type}`;
}
