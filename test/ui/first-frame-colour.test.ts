import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The first frame decides on its styles by chalk's supports-color without loading chalk; its bytes
// must be chalk's in every colour setting. Colour levels are decided as the modules load, from the
// environment: each setting runs in a process of its own, which styles the same lines with chalk.
const script = `
  const { default: chalk } = await import('chalk');
  const { firstFrameLines, PROMPT_PLACEHOLDER, NO_MODEL_LABEL } = await import(${JSON.stringify(new URL('../../src/ui/first-frame.ts', import.meta.url).href)});
  const { sanitizeTerminalText } = await import(${JSON.stringify(new URL('../../src/text/sanitize.ts', import.meta.url).href)});
  const models = ['qwen3', undefined, '', 'two\\nlines', 'cr\\r\\nlf', 'evil\\x1b[31mred'];
  const byChalk = (model) => [
    '',
    chalk.bold(chalk.cyan('›')) + ' \\x1b[7m \\x1b[27m' + chalk.dim(PROMPT_PLACEHOLDER),
    chalk.dim(sanitizeTerminalText(model ?? NO_MODEL_LABEL)),
  ];
  console.log(JSON.stringify({
    level: chalk.level,
    frames: models.map((model) => ({ model, expected: byChalk(model), actual: firstFrameLines(model) })),
  }));`;

function frameIn(env: Record<string, string>): Promise<{
  level: number;
  frames: { expected: string[]; actual: string[] }[];
}> {
  const base = { ...process.env };
  for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'TERM', 'COLORTERM']) delete base[name];
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { env: { ...base, ...env } },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    ),
  );
}

describe("the first frame's styles", () => {
  it.each([
    [{}, 0],
    [{ NO_COLOR: '1' }, 0],
    [{ FORCE_COLOR: '0' }, 0],
    [{ FORCE_COLOR: '1' }, 1],
    [{ FORCE_COLOR: '3' }, 3],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, 1],
    [{ TERM: 'dumb' }, 0],
    [{ TERM: 'dumb', FORCE_COLOR: '1' }, 1],
    [{ TERM: 'xterm-256color', FORCE_COLOR: '3' }, 2],
  ])('are chalk’s bytes with %j (colour level %i)', async (env, level) => {
    const result = await frameIn(env);
    expect(result.level).toBe(level);
    for (const { expected, actual } of result.frames) expect(actual).toEqual(expected);
    // Styled at a level above 0: the test compares styles, not only text.
    if (level > 0) expect(result.frames[0]?.actual[1]).toContain('\x1b[36m');
  });
});
