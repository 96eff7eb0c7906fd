import type * as z from 'zod/mini';

/** The parts of a zod schema definition the walk below reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodMiniType>;
  innerType?: z.ZodMiniType;
  out?: z.ZodMiniType;
  element?: z.ZodMiniType;
  /** A record's values (`mcp_servers.<name>`). */
  valueType?: z.ZodMiniType;
}

function defOf(schema: z.ZodMiniType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** Looks through the wrappers (defaults, optionals, preprocessing) that do not change the shape. */
function unwrap(schema: z.ZodMiniType): z.ZodMiniType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    const inner = def.type === 'pipe' ? def.out : def.innerType;
    if (!inner || !['pipe', 'default', 'prefault', 'optional', 'nullable'].includes(def.type)) return current;
    current = inner;
  }
}

/**
 * The keys the schema allows in the mapping at `path` (e.g. `['compaction', 'reserve']`), for
 * "did you mean" suggestions on unknown keys; empty when `path` does not lead to a mapping.
 */
export function knownKeysAt(schema: z.ZodMiniType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodMiniType | undefined = unwrap(schema);
  for (const segment of path) {
    const def = defOf(current);
    current =
      def.type === 'object'
        ? def.shape?.[String(segment)]
        : def.type === 'array'
          ? def.element
          : def.type === 'record'
            ? def.valueType
            : undefined;
    if (!current) return [];
    current = unwrap(current);
  }
  const def = defOf(current);
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}
