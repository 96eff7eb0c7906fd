import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimateToolDefinitionsTokens } from '../src/conversation/token-estimate.js';
import { runOchat } from '../test/support/e2e-process.js';
import { startEmulator } from '../test/support/emulator.js';
import {
  EVERYTHING_SERVER,
  FAULT_SERVER,
  FILESYSTEM_SERVER,
  mcpConfig,
} from '../test/support/mcp-servers.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { median } from './process-stats.js';
import { homeWithConfig, OCHAT_BIN, ptyMs } from './startup.bench.js';

const RUNS = 31;
const everything = EVERYTHING_SERVER;
const filesystem = FILESYSTEM_SERVER;
const fault = FAULT_SERVER;
const NUM_CTX_SIZES = [2048, 8192, 32768];

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * MCP servers must not cost the first frame: three configured (two real servers over stdio and
 * one that never answers initialize) against none, runs interleaved; and what the tool
 * definitions of one request take, with the everything server, at three window sizes.
 */
export const mcpBench: BenchSuite = async (): Promise<BenchRow[]> => {
  const emulator = await startEmulator({
    models: [{ name: 'bench-model:latest', capabilities: ['completion', 'tools'] }],
  });
  const sandbox = mkdtempSync(join(tmpdir(), 'ochat-bench-mcp-'));
  // Every home has a config file, kept from run to run: the servers are the only difference. A
  // second home without servers measures the noise: what two equal arms differ by in this run.
  const withoutHome = homeWithConfig('model: bench-model\n');
  const againHome = homeWithConfig('model: bench-model\n');
  const withHome = homeWithConfig(
    `model: bench-model\n${mcpConfig({
      everything: [everything, 'stdio'],
      filesystem: [filesystem, sandbox],
      hang: [fault, 'hang'],
    })}`,
  );
  try {
    const frame = (home: string) => ptyMs([OCHAT_BIN, '-m', 'bench-model'], emulator.url, '›', home);
    const arms = [withoutHome, againHome, withHome];
    const runs = new Map<string, number[]>(arms.map((home) => [home, []]));
    for (const home of arms) await frame(home);
    for (let i = 0; i < RUNS; i++) {
      // Rotating which goes first, so no arm gains from another's warm caches.
      for (let j = 0; j < arms.length; j++) {
        const home = arms[(i + j) % arms.length] ?? withoutHome;
        runs.get(home)?.push(await frame(home));
      }
    }
    const [none, again, three] = arms.map((home) => median(runs.get(home) ?? []));
    const frameRatio = three / none;
    const rows: BenchRow[] = [
      { name: 'first frame, no MCP server configured', value: round(none), unit: 'ms' },
      {
        name: 'first frame, 3 MCP servers configured (everything, filesystem, one hanging in initialize)',
        value: round(three),
        unit: 'ms',
      },
      {
        name: 'noise: first frame of a second home without servers, ratio to the first',
        value: Number((again / none).toFixed(2)),
        unit: '×',
      },
      {
        name: 'first frame with 3 MCP servers, ratio to none (same run, interleaved)',
        value: Number(frameRatio.toFixed(2)),
        unit: '×',
        target: '≤ 1.05× (noise)',
        pass: frameRatio <= 1.05,
      },
    ];

    // What one request carries, counted as the meter counts it (the default chars per token).
    const config = join(sandbox, 'everything.yml');
    writeFileSync(config, mcpConfig({ everything: [everything, 'stdio'] }));
    for (const numCtx of NUM_CTX_SIZES) {
      emulator.enqueue({ content: 'Hello there.' });
      const before = emulator.chats.length;
      const result = await runOchat(
        ['-m', 'bench-model', '-c', config, '--num-ctx', String(numCtx), '-p', 'hi'],
        { env: { OLLAMA_HOST: emulator.url }, timeoutMs: 30_000 },
      );
      const request = emulator.chats[before];
      if (result.code !== 0 || !request) throw new Error(`ochat -p at num_ctx ${numCtx}: ${result.stderr}`);
      const tools = (request.body?.tools ?? []) as { function: { name: string } }[];
      const names = tools.map((tool) => tool.function.name);
      const sentMcp = names.filter((name) => name.startsWith('everything__')).length;
      const sentBuiltIn = names.length - sentMcp - (names.includes('find_tools') ? 1 : 0);
      const deferred = /(\d+) deferred/.exec(result.stderr)?.[1] ?? '0';
      rows.push({
        name: `tool definitions per request at num_ctx ${numCtx} with the everything server (${sentMcp} MCP + ${sentBuiltIn} built-in sent${names.includes('find_tools') ? ' + find_tools' : ''}; ${deferred} deferred)`,
        value: estimateToolDefinitionsTokens(tools),
        unit: 'tokens',
        target: `≤ 25% of num_ctx = ${numCtx / 4}`,
        pass: estimateToolDefinitionsTokens(tools) <= numCtx / 4,
      });
    }
    return rows;
  } finally {
    await emulator.close();
    for (const dir of [sandbox, withoutHome, againHome, withHome])
      rmSync(dir, { recursive: true, force: true });
  }
};
