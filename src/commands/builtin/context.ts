import { formatTokens } from '../../conversation/format-tokens.js';
import type { SlashCommand } from '../command.js';
import { describeNumCtxSource } from '../num-ctx-source.js';

/** `/context`: where the context window goes, in tokens and percent. */
export const contextCommand: SlashCommand = {
  name: 'context',
  summary: 'Show how the context window is used (system, summary, tail, reserve, free)',
  usage: '/context',
  runsWhileBusy: true,
  run(host) {
    const breakdown = host.compaction.breakdown();
    if (!breakdown) {
      host.screen.show('The context window is not known yet: no model is connected.');
      return;
    }
    const width = Math.max(...breakdown.rows.map((r) => r.label.length));
    const sources = breakdown.toolDefinitionSources;
    const lines = breakdown.rows.flatMap((row) => {
      const bar = '█'.repeat(Math.round(row.percent / 5)).padEnd(20, '·');
      const line = `  ${row.label.padEnd(width)}  ${formatTokens(row.tokens).padStart(6)}  ${String(Math.round(row.percent)).padStart(3)}%  ${bar}`;
      // Per source only when there is more than the built-ins: which server costs what.
      if (row.label !== 'tool definitions' || sources.every((s) => s.source === 'built-in')) return [line];
      return [line, ...sources.map((s) => `      ${s.source}: ${formatTokens(s.tokens)}`)];
    });
    const source = describeNumCtxSource(host.model.numCtxSource, host.model.info);
    const from = source ? ` (from ${source})` : '';
    host.screen.show(
      [`Context window: ${formatTokens(breakdown.numCtx)} tokens${from}`, ...lines].join('\n'),
    );
  },
};
