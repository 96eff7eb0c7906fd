import * as z from 'zod/mini';

/** Runs `transform` on the input before `schema` checks it (zod classic's `z.preprocess`). */
export function preprocess<Schema extends z.ZodMiniType>(
  transform: (value: unknown) => unknown,
  schema: Schema,
) {
  return z.pipe(z.transform(transform), schema);
}
