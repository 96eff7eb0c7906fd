import type { JSONSchemaObject, JSONSchemaProperty, JSONSchemaType } from '../backend/interfaces.js';

/** Longest tool description sent: a 10 kB description would take its share of the window every request. */
export const MAX_TOOL_DESCRIPTION_CHARS = 1000;
/** Longest description of one parameter. */
const MAX_PROPERTY_DESCRIPTION_CHARS = 300;
/** Deepest nesting passed through; below it a property is sent as an untyped value. */
const MAX_DEPTH = 8;

const TYPES = new Set<string>(['string', 'integer', 'number', 'boolean', 'array', 'object', 'null']);

/** A description cut to `max` characters, whitespace runs (and control characters) made one space. */
export function shortDescription(text: unknown, max: number): string | undefined {
  if (typeof text !== 'string') return undefined;
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * An MCP tool's `inputSchema` as Ollama's `tools[].function.parameters`: the parts of JSON Schema
 * chat templates render (types, descriptions, enums, nested properties, items, anyOf/oneOf),
 * everything else (`$schema`, `$ref`, formats…) left out. Never throws on a malformed schema.
 */
export function toToolParameters(inputSchema: unknown): JSONSchemaObject {
  const root = isRecord(inputSchema) ? inputSchema : {};
  const property = toProperty(root, 0);
  return {
    type: 'object',
    properties: property.properties ?? {},
    ...(property.required?.length ? { required: property.required } : {}),
  };
}

function toProperty(schema: Record<string, unknown>, depth: number): JSONSchemaProperty {
  const property: JSONSchemaProperty = {};
  const type = typeOf(schema.type);
  if (type) property.type = type;
  const description = shortDescription(schema.description, MAX_PROPERTY_DESCRIPTION_CHARS);
  if (description) property.description = description;
  if (Array.isArray(schema.enum)) {
    property.enum = schema.enum.filter(
      (v): v is string | number | boolean | null =>
        v === null || ['string', 'number', 'boolean'].includes(typeof v),
    );
  }
  if (schema.default !== undefined && ['string', 'number', 'boolean'].includes(typeof schema.default))
    property.default = schema.default;
  if (depth >= MAX_DEPTH) return property;
  if (isRecord(schema.items)) property.items = toProperty(schema.items, depth + 1);
  if (isRecord(schema.properties)) {
    property.properties = {};
    for (const [name, inner] of Object.entries(schema.properties))
      property.properties[name] = isRecord(inner) ? toProperty(inner, depth + 1) : {};
  }
  if (Array.isArray(schema.required)) {
    const required = schema.required.filter((name): name is string => typeof name === 'string');
    if (required.length) property.required = required;
  }
  const union = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (union) property.anyOf = union.filter(isRecord).map((option) => toProperty(option, depth + 1));
  return property;
}

function typeOf(type: unknown): JSONSchemaType | JSONSchemaType[] | undefined {
  if (typeof type === 'string') return TYPES.has(type) ? (type as JSONSchemaType) : undefined;
  if (!Array.isArray(type)) return undefined;
  const types = type.filter((t): t is JSONSchemaType => typeof t === 'string' && TYPES.has(t));
  return types.length ? types : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
