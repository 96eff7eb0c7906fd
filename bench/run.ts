import { mkdirSync, writeFileSync } from 'node:fs';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { bigTextBench } from './big-text.bench.js';
import { compactionBench } from './compaction.bench.js';
import { compactionProbesBench } from './compaction-probes.bench.js';
import { llamaServerBench } from './llama-server.bench.js';
import { mcpBench } from './mcp.bench.js';
import { mcpLoadBench } from './mcp-load.bench.js';
import { sessionsBench } from './sessions.bench.js';
import { startupBench } from './startup.bench.js';
import { streamingBench } from './streaming.bench.js';

const SUITES: Record<string, BenchSuite> = {
  startup: startupBench,
  streaming: streamingBench,
  compaction: compactionBench,
  'compaction probes': compactionProbesBench,
  sessions: sessionsBench,
  'big-text': bigTextBench,
  mcp: mcpBench,
  'mcp load': mcpLoadBench,
  'llama-server': llamaServerBench,
};

/** Runs every suite (or those named on the command line) and prints one table. */
async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const results: Record<string, BenchRow[]> = {};
  for (const [name, suite] of Object.entries(SUITES)) {
    if (wanted.length && !wanted.includes(name)) continue;
    process.stdout.write(`\n${name}\n`);
    const rows = await suite();
    results[name] = rows;
    for (const row of rows) {
      const verdict = row.pass === undefined ? '' : row.pass ? '  ✓' : '  ✗ MISSED';
      const target = row.target ? `  (target ${row.target})` : '';
      // A median's spread: a loaded machine moves single runs by as much as the figure itself.
      const spread = row.spread
        ? `  [min ${row.spread.min} / median ${row.value} / max ${row.spread.max} over ${row.spread.runs} runs]`
        : '';
      process.stdout.write(`  ${row.name}: ${row.value} ${row.unit}${target}${verdict}${spread}\n`);
    }
  }
  mkdirSync('.bench-results', { recursive: true });
  writeFileSync(
    '.bench-results/latest.json',
    `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`,
  );
}

await main();
