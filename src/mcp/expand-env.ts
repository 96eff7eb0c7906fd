/** `${NAME}` or `${NAME:-fallback}` in a config value. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A mapping with its `${VAR}` references filled from `env`, and the names that were unset. */
export interface ExpandedValues {
  values: Record<string, string>;
  missing: string[];
}

/**
 * Fills `${VAR}` (and `${VAR:-fallback}`) in each value from `env`; an unset variable without a
 * fallback becomes '' and is named in `missing`, so the server's failure can be explained.
 */
export function expandEnvReferences(
  values: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): ExpandedValues {
  const missing = new Set<string>();
  const expanded: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    expanded[key] = value.replace(REFERENCE, (_, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return '';
    });
  }
  return { values: expanded, missing: [...missing] };
}
