/**
 * Vitest setup of the unit tests: fast-check's properties draw from one fixed seed, so `npm test`
 * gives the same verdict on every run and a red CI means the change, not the dice. `npm run
 * test:properties` sets OCHAT_FC_SEED=fresh to explore new cases: vitest.config.ts draws that
 * seed once for the whole run and prints it; OCHAT_FC_SEED=<seed> replays it.
 */
import fc from 'fast-check';

const FIXED_SEED = 20261204;
const wanted = process.env.OCHAT_FC_SEED;
const seed = wanted !== undefined && wanted !== '' ? Number(wanted) : FIXED_SEED;
if (!Number.isSafeInteger(seed))
  throw new Error(`OCHAT_FC_SEED must be an integer or "fresh", not ${JSON.stringify(wanted)}`);
fc.configureGlobal({ seed });
