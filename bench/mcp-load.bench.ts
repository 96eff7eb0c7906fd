import { rmSync } from 'node:fs';
import { startEmulator } from '../test/support/emulator.js';
import { FAULT_SERVER, mcpConfig } from '../test/support/mcp-servers.js';
import { spawnOchat } from '../test/support/pty-session.js';
import type { BenchRow, BenchSuite } from './bench-row.js';
import { cpuTimeMs, peakRssMb } from './process-stats.js';
import { homeWithConfig } from './startup.bench.js';

const MODEL = { name: 'bench-model:latest', capabilities: ['completion', 'tools'] };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Types `line`, then an unknown command `/<mark>`, and times it until ochat answers the second:
 * the first is drawn by then (commands run in turn). Read from what ochat wrote, not a terminal.
 */
async function commandMs(pty: ReturnType<typeof spawnOchat>, line: string, mark: string): Promise<number> {
  const started = Date.now();
  pty.write(`${line}\r`);
  pty.write(`/${mark}\r`);
  while (!pty.raw().includes(`Unknown command /${mark}`)) {
    if (Date.now() - started > 120_000) throw new Error(`${line}: not drawn within 2 minutes`);
    await pause(20);
  }
  return Date.now() - started;
}

/**
 * MCP servers that push too much: one that writes stderr as fast as the pipe takes it (ochat's
 * CPU over 5 s; a flood kept it at 85% of a core), and one that lists 10,000 tools (ochat's peak
 * memory, and how long /mcp and /tools take to be drawn; they took ~780 MB, 3.5 s and 6.7 s).
 */
export const mcpLoadBench: BenchSuite = async (): Promise<BenchRow[]> => {
  const emulator = await startEmulator({ models: [MODEL] });
  const rows: BenchRow[] = [];
  const run = async (
    servers: Record<string, string[]>,
    measure: (pty: ReturnType<typeof spawnOchat>) => Promise<void>,
  ) => {
    const home = homeWithConfig(`model: bench-model\n${mcpConfig(servers)}`);
    const pty = spawnOchat(['-m', 'bench-model'], {
      home,
      env: { OLLAMA_HOST: emulator.url },
      cols: 120,
      rows: 40,
    });
    try {
      await pty.waitFor('num_ctx', 30_000);
      await measure(pty);
    } finally {
      await pty.dispose();
      rmSync(home, { recursive: true, force: true });
    }
  };
  try {
    await run({ loud: [FAULT_SERVER, 'spew'] }, async (pty) => {
      await pause(2000);
      const [cpu, at] = [cpuTimeMs(pty.pid), Date.now()];
      await pause(5000);
      const share = (cpuTimeMs(pty.pid) - cpu) / (Date.now() - at);
      rows.push({
        name: 'ochat CPU while an MCP server writes stderr without end (share of a core over 5 s)',
        value: Math.round(share * 1000) / 10,
        unit: '%',
        target: '≤ 5%',
        pass: share <= 0.05,
      });
    });
    await run({ many: [FAULT_SERVER, 'many', '--tools=10000'] }, async (pty) => {
      for (let n = 0; !pty.raw().includes('1,000 of the 10,000 tools'); n++)
        await commandMs(pty, '/mcp', `ready-${n}`);
      const mcp = await commandMs(pty, '/mcp', 'mark-mcp');
      const tools = await commandMs(pty, '/tools', 'mark-tools');
      rows.push(
        { name: '/mcp with a server listing 10,000 tools (typed to drawn)', value: mcp, unit: 'ms' },
        {
          name: '/tools with a server listing 10,000 tools (typed to drawn)',
          value: tools,
          unit: 'ms',
          target: '≤ 1000 ms',
          pass: tools <= 1000,
        },
        {
          name: 'ochat peak memory with a server listing 10,000 tools, after /mcp and /tools',
          value: Math.round(peakRssMb(pty.pid)),
          unit: 'MB',
          target: '≤ 300 MB',
          pass: peakRssMb(pty.pid) <= 300,
        },
      );
    });
    return rows;
  } finally {
    await emulator.close();
  }
};
