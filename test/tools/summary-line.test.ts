import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, createToolRegistry } from '../../src/tools/registry.js';
import { toolSummaryLine } from '../../src/tools/summary-line.js';
import type { Tool } from '../../src/tools/tool.js';

const throwingTool: Tool = {
  name: 'fragile',
  description: 'its template throws',
  parameters: { type: 'object', properties: {} },
  keyArgument: () => '',
  run: async () => ({ ok: true, output: '' }),
  summaryLine: () => {
    throw new Error('boom');
  },
};

const multilineTool: Tool = { ...throwingTool, name: 'chatty', summaryLine: () => 'first\nsecond' };

describe('toolSummaryLine', () => {
  const registry = createToolRegistry([...BUILTIN_TOOLS, throwingTool, multilineTool], { enabled: [] });

  it("uses the tool's own template (disabled tools included)", () => {
    const outcome = { ok: true, output: '', details: { startLine: 1, endLine: 120, totalLines: 340 } };
    expect(toolSummaryLine(registry, 'read_file', { path: 'src/app.ts' }, outcome)).toBe(
      'read src/app.ts (lines 1–120 of 340)',
    );
  });

  it('falls back to "<name> was called." for an unknown tool', () => {
    expect(toolSummaryLine(registry, 'teleport', {}, { ok: true, output: '' })).toBe('teleport was called.');
  });

  it('falls back when the template throws', () => {
    expect(toolSummaryLine(registry, 'fragile', {}, { ok: true, output: '' })).toBe('fragile was called.');
  });

  it('keeps the line on one line', () => {
    expect(toolSummaryLine(registry, 'chatty', {}, { ok: true, output: '' })).toBe('first second');
  });

  it('is deterministic for the same inputs', () => {
    const outcome = {
      ok: false,
      output: 'x',
      details: { exitCode: 2, timedOut: false, aborted: false, signal: null },
    };
    const a = toolSummaryLine(registry, 'run_command', { command: 'make' }, outcome);
    const b = toolSummaryLine(registry, 'run_command', { command: 'make' }, structuredClone(outcome));
    expect(a).toBe('❌ make (exit 2)');
    expect(b).toBe(a);
  });
});
