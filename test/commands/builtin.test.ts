import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../src/commands/builtin-commands.js';
import { dispatchCommand } from '../../src/commands/dispatch.js';
import { OLLAMA_OPTIONS } from '../../src/config/ollama-options.js';
import type { CompactionRecord } from '../../src/conversation/compaction-record.js';
import { formatWhen } from '../../src/text/format-when.js';
import { FakeHost } from '../support/fake-command-host.js';

/** Runs one command line against a fresh (or given) fake host. */
async function run(line: string, host = new FakeHost()): Promise<FakeHost> {
  await dispatchCommand(BUILTIN_COMMANDS, host, line);
  return host;
}

const RECORD: CompactionRecord = {
  upto: 12,
  narrative: 'The user, Ada, is porting parser.c to Rust; the assistant promised a test plan.',
  toolEntries: ['read_file src/parser.c — read src/parser.c (lines 1–120 of 340)', 'get_time — time 2026'],
  model: 'qwen3:latest',
  at: '2026-08-21T10:00:00.000Z',
  tokensBefore: 6100,
  tokensAfter: 1200,
};

describe('/help', () => {
  it('lists every command with its usage, summary and aliases, and the keys', async () => {
    const wide = new FakeHost();
    wide.screen.columns = 300; // each summary on one row
    const host = await run('/help', wide);
    const text = host.onlyShown;
    for (const command of BUILTIN_COMMANDS) {
      expect(text).toContain(command.usage);
      expect(text).toContain(command.summary);
    }
    expect(text).toContain('(also /exit, /bye, /q)');
    expect(text).toContain('Ctrl+C');
    expect(text).toContain('Ctrl+T');
    expect(text).toContain('!command runs a shell command');
    // One line per command, in the registry's order.
    const positions = BUILTIN_COMMANDS.map((c) => text.indexOf(`  ${c.usage}`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('wraps each summary in its own column at the terminal width; a long usage puts it below', async () => {
    const narrow = new FakeHost();
    narrow.screen.columns = 60;
    const host = await run('/help', narrow);
    const rows = host.onlyShown.split('\n');
    const commandRows = rows.slice(1, rows.indexOf(''));
    expect(commandRows.every((row) => row.length <= 60)).toBe(true);
    const column = commandRows[0].indexOf('List the slash commands');
    expect(column).toBeGreaterThan(2);
    // Continuation rows and the summaries of long usages start in that column, never at the edge.
    for (const row of commandRows) {
      if (!row.startsWith('  /')) expect(row.slice(0, column).trim()).toBe('');
    }
    const show = commandRows.findIndex((row) => row.startsWith('  /show [info|modelfile'));
    expect(commandRows[show + 1].slice(column)).toMatch(/^Show the model/);
  });

  it('is reachable as /?', async () => {
    const host = await run('/?');
    expect(host.onlyShown).toMatch(/^Commands:/);
  });
});

describe('/model', () => {
  it('lists the installed models with their size facts and marks the current one', async () => {
    const host = new FakeHost();
    host.model.name = 'qwen3';
    host.installed = [
      { name: 'llama3.2:latest', parameterSize: '3.2B', quantization: 'Q4_K_M' },
      { name: 'qwen3:latest', parameterSize: '8.2B' },
      { name: 'tiny:1b' },
    ];
    await run('/model', host);
    expect(host.onlyShown).toBe(
      [
        'Installed models (switch with /model <name>):',
        '   llama3.2:latest  (3.2B Q4_K_M)',
        ' ● qwen3:latest  (8.2B)',
        '   tiny:1b',
      ].join('\n'),
    );
    expect(host.switchedTo).toEqual([]);
  });

  it('says how to install a model when none is installed', async () => {
    const host = await run('/model');
    expect(host.onlyShown).toContain('ollama pull');
  });

  it('switches to the named model', async () => {
    const host = await run('/model llama3.2');
    expect(host.switchedTo).toEqual(['llama3.2']);
    expect(host.shown).toEqual([]);
  });

  it('finds the installed model a name means regardless of case (/model M1 finds m1)', async () => {
    const host = new FakeHost();
    host.installed = [{ name: 'm1:latest' }, { name: 'm10:latest' }];
    await run('/model M1', host);
    await run('/load M10:LATEST', host);
    await run('/model other', host);
    expect(host.switchedTo).toEqual(['m1:latest', 'm10:latest', 'other']);
    await run('/model m1', host);
    expect(host.switchedTo.at(-1)).toBe('m1');
  });

  it('/load switches models, and imports a path-like argument as a session export', async () => {
    const host = await run('/load qwen3');
    expect(host.switchedTo).toEqual(['qwen3']);
    for (const file of ['chat.json', './saved', '~/s.jsonl', '/tmp/x']) {
      const imported = await run(`/load ${file}`);
      expect(imported.switchedTo).toEqual([]);
      expect(imported.sessionCalls).toEqual([`load ${file}`]);
    }
    expect((await run('/load')).notices[0].text).toContain('needs a model name');
  });

  it('reports a failing model list as a one-line error', async () => {
    const host = new FakeHost();
    host.model.list = async () => {
      throw new Error('Cannot reach Ollama at http://127.0.0.1:1');
    };
    await run('/model', host);
    expect(host.notices).toEqual([
      { level: 'error', text: '/model failed: Cannot reach Ollama at http://127.0.0.1:1' },
    ]);
  });
});

describe('/system', () => {
  it('shows the system prompt, or says there is none', async () => {
    expect((await run('/system')).onlyShown).toBe('No system prompt is set.');
    const withModelfile = new FakeHost();
    withModelfile.model.modelSystem = 'You are Mario.';
    expect((await run('/system', withModelfile)).onlyShown).toBe(
      "No system prompt is set; the model's own applies:\nYou are Mario.",
    );
    const host = new FakeHost();
    host.model.system = 'Answer in French.';
    await run('/system', host);
    expect(host.onlyShown).toBe('System prompt:\nAnswer in French.');
  });

  it('sets the prompt to the whole argument text', async () => {
    const host = await run('/system You are terse.  Use metric units.');
    expect(host.model.system).toBe('You are terse.  Use metric units.');
    expect(host.notices).toEqual([{ level: 'success', text: 'System prompt set.' }]);
  });

  it('clears it with /system clear', async () => {
    const host = new FakeHost();
    host.model.system = 'old';
    await run('/system clear', host);
    expect(host.model.system).toBeUndefined();
    expect(host.notices).toEqual([{ level: 'success', text: 'System prompt removed.' }]);
  });
});

describe('/set', () => {
  it('lists what is really in force: num_ctx with its source, options, the Modelfile parameters left', async () => {
    const host = new FakeHost();
    host.model.numCtx = 2048;
    host.model.numCtxSource = 'flag';
    host.options.values = { temperature: 0.2, stop: ['</s>'] };
    host.optionsSetInChat.add('temperature');
    host.model.info = {
      name: 'qwen3',
      capabilities: ['completion'],
      parameters: [
        { name: 'num_ctx', value: '8192' },
        { name: 'stop', value: '"<|im_end|>"' },
        { name: 'top_k', value: '20' },
      ],
    };
    await run('/set', host);
    const text = host.onlyShown;
    expect(text).toContain('In force for qwen3:latest:');
    expect(text).toContain('  num_ctx      2048      (--num-ctx)');
    expect(text).toContain('  temperature  0.2       (/set)');
    expect(text).toContain('  stop         ["</s>"]  (config)');
    expect(text).toContain('  top_k        20        (Modelfile)');
    // The Modelfile's stop and num_ctx are replaced, so not listed as in force.
    expect(text).not.toContain('im_end');
    for (const name of Object.keys(OLLAMA_OPTIONS)) expect(text).toContain(name);
  });

  it('names ochat default num_ctx, and says when no model is connected', async () => {
    expect((await run('/set')).onlyShown).toContain("num_ctx  8192  (ochat's default)");
    const host = new FakeHost();
    host.model.numCtx = undefined;
    await run('/set', host);
    expect(host.onlyShown).toContain('(nothing yet: no model is connected)');
  });

  it('unsets an option with "default", rejecting unknown names', async () => {
    const host = new FakeHost();
    await run('/set temperature 0.7', host);
    await run('/set temperature default', host);
    expect(host.options.values).toEqual({});
    expect(host.notices.at(-1)).toEqual({
      level: 'success',
      text: "temperature is back to the model's default.",
    });
    await run('/set temprature default', host);
    expect(host.notices.at(-1)?.text).toContain('did you mean "temperature"');
  });

  it("takes ollama run's forms: /set parameter, /set system, /set think and nothink", async () => {
    const host = new FakeHost();
    await run('/set parameter top_k 20', host);
    expect(host.options.values).toEqual({ top_k: 20 });
    await run('/set parameter top_k default', host);
    expect(host.options.values).toEqual({});
    await run('/set system You are terse.  Really.', host);
    expect(host.model.system).toBe('You are terse.  Really.');
    await run('/set nothink', host);
    expect(host.model.think).toBe(false);
    await run('/set think', host);
    expect(host.model.think).toBe(true);
    await run('/set system', host);
    expect(host.notices.at(-1)).toMatchObject({ level: 'error' });
    expect(host.model.system).toBe('You are terse.  Really.');
  });

  it('sets a valid option with its typed value', async () => {
    const host = await run('/set temperature 0.7');
    expect(host.options.values).toEqual({ temperature: 0.7 });
    expect(host.notices).toEqual([{ level: 'success', text: 'temperature = 0.7' }]);
    const seeded = await run('/set seed 42');
    expect(seeded.options.values.seed).toBe(42);
    const ctx = await run('/set num_ctx 4096');
    expect(ctx.options.values.num_ctx).toBe(4096);
  });

  it('shows the value in force when the host caps it', async () => {
    const host = new FakeHost();
    host.numCtxCap = 131072;
    await run('/set num_ctx 999999999', host);
    expect(host.notices).toEqual([{ level: 'success', text: 'num_ctx = 131072' }]);
  });

  it('rejects an unknown option with a suggestion and the usage, setting nothing', async () => {
    const host = await run('/set temprature 0.7');
    expect(host.options.values).toEqual({});
    expect(host.notices).toHaveLength(1);
    expect(host.notices[0].level).toBe('error');
    expect(host.notices[0].text).toContain('"temprature"');
    expect(host.notices[0].text).toContain('temperature');
    expect(host.notices[0].text).toContain('Usage: /set <option> <value>');
  });

  it('rejects an out-of-range or mistyped value', async () => {
    const range = await run('/set top_p 3');
    expect(range.options.values).toEqual({});
    expect(range.notices[0]).toMatchObject({ level: 'error' });
    expect(range.notices[0].text).toMatch(/^top_p: /);
    const typed = await run('/set seed banana');
    expect(typed.options.values).toEqual({});
    expect(typed.notices[0].text).toMatch(/^seed: .*banana/);
  });

  it('needs a value', async () => {
    const host = await run('/set temperature');
    expect(host.options.values).toEqual({});
    expect(host.notices).toEqual([
      {
        level: 'error',
        text: '/set needs an option and a value. Usage: /set <option> <value>',
      },
    ]);
  });
});

describe('/think', () => {
  it.each([
    ['on', true, 'on'],
    ['off', false, 'off'],
    ['low', 'low', 'low'],
    ['MEDIUM', 'medium', 'medium'],
    ['high', 'high', 'high'],
  ] as const)('/think %s sets %s', async (arg, value, shown) => {
    const host = await run(`/think ${arg}`);
    expect(host.model.think).toBe(value);
    expect(host.notices).toEqual([{ level: 'success', text: `Thinking: ${shown}` }]);
  });

  it('shows the current setting', async () => {
    expect((await run('/think')).onlyShown).toBe('Thinking: model default');
    const host = new FakeHost();
    host.model.think = 'high';
    await run('/think', host);
    expect(host.onlyShown).toBe('Thinking: high');
  });

  it('warns when the model does not support thinking but keeps the setting: one line, no success', async () => {
    const host = new FakeHost();
    host.model.supportsThinking = false;
    host.model.name = 'llama3.2';
    await run('/think on', host);
    expect(host.model.think).toBe(true);
    expect(host.notices).toEqual([
      { level: 'warning', text: 'llama3.2 does not support thinking: "on" is kept for models that do.' },
    ]);
    const shown = await run('/think', host);
    expect(shown.shown.at(-1)).toBe('Thinking: on (llama3.2 does not support thinking)');
  });

  it('rejects unknown values, including names inherited from Object', async () => {
    for (const bad of ['maybe', 'constructor', '__proto__', 'toString']) {
      const host = await run(`/think ${bad}`);
      expect(host.model.think).toBeUndefined();
      expect(host.notices).toEqual([
        {
          level: 'error',
          text: `Unknown thinking setting "${bad}". Usage: /think [on|off|low|medium|high]`,
        },
      ]);
    }
  });
});

describe('/compact', () => {
  it('passes the focus instructions, or none', async () => {
    const host = await run('/compact');
    await run('/compact keep every file path', host);
    expect(host.compactCalls).toEqual([undefined, 'keep every file path']);
  });
});

describe('/summary', () => {
  it('says there is no summary before a compaction', async () => {
    expect((await run('/summary')).onlyShown).toContain('has not been compacted');
  });

  it('shows the narrative and every tool entry in full', async () => {
    const host = new FakeHost();
    host.compaction.record = RECORD;
    host.toolCalls = [...RECORD.toolEntries];
    await run('/summary', host);
    // When, for a person (local time), never the raw ISO stamp.
    expect(host.onlyShown).toMatch(
      /^Summary of messages 1–12 \(by qwen3:latest, on 21 Aug( 2026)? at \d\d:\d\d\):/,
    );
    expect(host.onlyShown).toBe(
      [
        `Summary of messages 1–12 (by qwen3:latest, ${formatWhen(RECORD.at)}):`,
        '',
        RECORD.narrative,
        '',
        'Tool calls (2):',
        `  - ${RECORD.toolEntries[0]}`,
        `  - ${RECORD.toolEntries[1]}`,
      ].join('\n'),
    );
  });

  it('shows the exact lines, then how the model sees them when they were folded, and what was cut', async () => {
    const host = new FakeHost();
    host.compaction.record = {
      ...RECORD,
      toolEntries: ['read_file: read a.ts (×2)'],
      cut: { text: 'yada yada', tokens: 3 },
    };
    host.toolCalls = ['read_file: read a.ts (lines 1–5 of 9)', 'read_file: read a.ts (lines 6–9 of 9)'];
    await run('/summary', host);
    expect(host.onlyShown.split('\n').slice(4)).toEqual([
      'Tool calls (2):',
      '  - read_file: read a.ts (lines 1–5 of 9)',
      '  - read_file: read a.ts (lines 6–9 of 9)',
      'The model sees them folded into 1 line to fit the summary budget:',
      '  - read_file: read a.ts (×2)',
      '',
      "Cut from the summarizer's reply to fit the budget (about 3 tokens):",
      'yada yada',
    ]);
  });

  it('says when the server cut off a summarizer reply, with or without words cut', async () => {
    const host = new FakeHost();
    host.compaction.record = { ...RECORD, toolEntries: [], cut: { text: '', tokens: 0, endsLost: 1 } };
    await run('/summary', host);
    expect(host.onlyShown.split('\n').slice(3)).toEqual([
      '',
      "The summarizer's reply ran past its length limit: the server cut off its end, unseen.",
    ]);
    const both = new FakeHost();
    both.compaction.record = { ...RECORD, toolEntries: [], cut: { text: 'yada', tokens: 1, endsLost: 2 } };
    await run('/summary', both);
    expect(both.onlyShown.split('\n').slice(3)).toEqual([
      '',
      "Cut from the summarizer's reply to fit the budget (about 1 tokens):",
      'yada',
      '',
      "The summarizer's reply ran past its length limit: the server cut off its end, unseen.",
    ]);
  });

  it('shows the exact details kept beside the summary, and how many were folded', async () => {
    const host = new FakeHost();
    host.compaction.record = {
      ...RECORD,
      toolEntries: [],
      details: [
        { text: '5433', context: 'host listens on port …' },
        { text: 'ORD-58213', context: '' },
      ],
      detailsFolded: 3,
    };
    await run('/summary', host);
    expect(host.onlyShown.split('\n').slice(3)).toEqual([
      '',
      'Exact details the summary left out, kept verbatim beside it (2):',
      '  - 5433 (host listens on port …)',
      '  - ORD-58213',
      "3 exact details were folded to fit the summary budget (a paste's first, then the oldest); the history (session file, /history) keeps them.",
    ]);
  });

  it('leaves out the tool section when there were no tool calls', async () => {
    const host = new FakeHost();
    host.compaction.record = { ...RECORD, toolEntries: [] };
    await run('/summary', host);
    expect(host.onlyShown).not.toContain('Tool calls');
    expect(host.onlyShown).toContain(RECORD.narrative);
  });
});

describe('/context', () => {
  it('shows one row per part of the window with tokens, percent and a bar', async () => {
    const host = new FakeHost();
    host.breakdown = {
      numCtx: 8192,
      rows: [
        { label: 'system', tokens: 100, percent: 1.2 },
        { label: 'summary', tokens: 800, percent: 9.8 },
        { label: 'tool entries', tokens: 50, percent: 0.6 },
        { label: 'verbatim tail', tokens: 2000, percent: 24.4 },
        { label: 'reserve', tokens: 2048, percent: 25 },
        { label: 'free', tokens: 3194, percent: 39 },
      ],
      toolDefinitionSources: [],
    };
    await run('/context', host);
    const lines = host.onlyShown.split('\n');
    expect(lines[0]).toBe("Context window: 8k tokens (from ochat's default)");
    expect(lines).toHaveLength(7);
    for (const label of ['system', 'summary', 'tool entries', 'verbatim tail', 'reserve', 'free']) {
      expect(lines.some((l) => l.trimStart().startsWith(label))).toBe(true);
    }
    const reserve = lines.find((l) => l.includes('reserve')) ?? '';
    expect(reserve).toMatch(/reserve\s+2k\s+25%\s+█{5}·{15}$/);
    const free = lines.find((l) => l.includes('free')) ?? '';
    expect(free).toMatch(/free\s+3.2k\s+39%\s+█{8}·{12}$/);
  });

  it('splits the tool definitions by source when MCP servers add some', async () => {
    const host = new FakeHost();
    host.breakdown = {
      numCtx: 8192,
      rows: [{ label: 'tool definitions', tokens: 1500, percent: 18.3 }],
      toolDefinitionSources: [
        { source: 'built-in', tokens: 600 },
        { source: 'MCP everything', tokens: 900 },
      ],
    };
    await run('/context', host);
    expect(host.onlyShown.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^ {2}tool definitions\s+1.5k\s+18%/),
      '      built-in: 600',
      '      MCP everything: 900',
    ]);
  });

  it('says so when no model is connected', async () => {
    expect((await run('/context')).onlyShown).toContain('not known yet');
  });
});

describe('/tools', () => {
  function withTools(): FakeHost {
    const host = new FakeHost();
    host.toolStates = [
      {
        name: 'read_file',
        description: 'Read a file',
        enabled: true,
        needsConfirmation: false,
        deferred: false,
      },
      {
        name: 'run_command',
        description: 'Run a command',
        enabled: false,
        needsConfirmation: true,
        deferred: false,
      },
    ];
    return host;
  }

  it('lists the tools with their state and whether they ask first', async () => {
    const host = await run('/tools', withTools());
    expect(host.onlyShown).toBe(
      ['Tools:', '  ● read_file    Read a file', '  ○ run_command  Run a command (asks first)'].join('\n'),
    );
  });

  it('marks a tool whose definition is deferred (found with find_tools)', async () => {
    const host = withTools();
    host.toolStates.push({
      name: 'echo',
      description: 'Echoes back the input',
      enabled: true,
      needsConfirmation: false,
      deferred: true,
    });
    await run('/tools', host);
    expect(host.onlyShown.split('\n').at(-1)).toBe(
      '  ● echo         Echoes back the input (deferred: found with find_tools)',
    );
  });

  it('wraps long descriptions in their own column, to the width it is given', async () => {
    const host = withTools();
    host.toolStates[0].description =
      'Read a text file in the working directory, at most 256 KB, with line numbers';
    host.screen.columns = 50;
    await run('/tools', host);
    expect(host.onlyShown).toBe(
      [
        'Tools:',
        '  ● read_file    Read a text file in the working',
        '                 directory, at most 256 KB, with',
        '                 line numbers',
        '  ○ run_command  Run a command (asks first)',
      ].join('\n'),
    );
    for (const row of host.onlyShown.split('\n')) expect(row.length).toBeLessThanOrEqual(50);
  });

  it('puts descriptions under the names on a terminal too narrow for both', async () => {
    const host = withTools();
    host.screen.columns = 34;
    await run('/tools', host);
    expect(host.onlyShown).toBe(
      [
        'Tools:',
        '  ● read_file',
        '      Read a file',
        '  ○ run_command',
        '      Run a command (asks first)',
      ].join('\n'),
    );
  });

  it('turns a tool on and off', async () => {
    const host = await run('/tools on run_command', withTools());
    expect(host.toolStates[1].enabled).toBe(true);
    expect(host.notices).toEqual([{ level: 'success', text: 'run_command enabled.' }]);
    await run('/tools off read_file', host);
    expect(host.toolStates[0].enabled).toBe(false);
    expect(host.notices[1]).toEqual({ level: 'success', text: 'read_file disabled.' });
  });

  it('names the tools when asked for an unknown one', async () => {
    const host = await run('/tools on rm_rf', withTools());
    expect(host.notices).toEqual([
      {
        level: 'error',
        text: 'No tool named "rm_rf" (tools: read_file, run_command). Usage: /tools [on|off <name> | revoke <n|all>]',
      },
    ]);
  });

  it('rejects other arguments with the usage', async () => {
    const host = await run('/tools enable read_file', withTools());
    expect(host.toolStates[0].enabled).toBe(true);
    expect(host.notices[0].text).toBe(
      'Expected "on <name>", "off <name>" or "revoke <n|all>". Usage: /tools [on|off <name> | revoke <n|all>]',
    );
  });

  it('lists the "always" approvals, numbered, and revokes one or all', async () => {
    const host = withTools();
    host.approvals = [
      { tool: 'run_command', scope: 'npm test …' },
      { tool: 'write_file', scope: 'notes.md' },
      { tool: 'get_time', scope: '' },
    ];
    await run('/tools', host);
    expect(host.onlyShown).toBe(
      [
        'Tools:',
        '  ● read_file    Read a file',
        '  ○ run_command  Run a command (asks first)',
        'Allowed without asking this session ("always"; /tools revoke <n|all> to withdraw):',
        '  1. run_command npm test …',
        '  2. write_file notes.md',
        '  3. every get_time call',
      ].join('\n'),
    );
    await run('/tools revoke 2', host);
    expect(host.notices).toEqual([
      { level: 'success', text: 'Revoked write_file notes.md: it asks first again.' },
    ]);
    expect(host.approvals.map((a) => a.tool)).toEqual(['run_command', 'get_time']);
    await run('/tools revoke 3', host);
    expect(host.notices[1].text).toBe(
      'Expected an approval number from 1 to 2, or "all" (/tools lists them). Usage: /tools [on|off <name> | revoke <n|all>]',
    );
    await run('/tools revoke', host);
    expect(host.notices[2].level).toBe('error');
    await run('/tools revoke all', host);
    expect(host.notices[3]).toEqual({
      level: 'success',
      text: 'Revoked 2 approvals: those calls ask first again.',
    });
    await run('/tools revoke all', host);
    expect(host.notices[4]).toEqual({
      level: 'info',
      text: 'No "always" approvals to revoke: every tool in tools.confirm asks first.',
    });
  });
});

describe('/last-tool', () => {
  it('shows the full output of the last tool call', async () => {
    const host = new FakeHost();
    host.lastTool = { name: 'run_command', output: 'line 1\nline 2\nline 3' };
    await run('/last-tool', host);
    expect(host.onlyShown).toBe('Output of run_command:\nline 1\nline 2\nline 3');
  });

  it('says when no tool has run', async () => {
    expect((await run('/last-tool')).onlyShown).toBe('No tool has run in this conversation.');
  });
});

describe('/clear and /quit', () => {
  it('/clear and /new start a new conversation', async () => {
    const host = await run('/clear');
    await run('/new', host);
    expect(host.cleared).toBe(2);
    expect(host.exited).toBe(0);
  });

  it('/quit and its aliases exit', async () => {
    const host = new FakeHost();
    for (const line of ['/quit', '/exit', '/bye', '/q']) await run(line, host);
    expect(host.exited).toBe(4);
    expect(host.cleared).toBe(0);
  });
});

describe('/show', () => {
  const tutor = {
    name: 'tutor',
    capabilities: ['completion', 'tools'],
    architecture: 'llama',
    parameterSize: '3.2B',
    quantization: 'Q4_K_M',
    trainedContext: 131072,
    embeddingLength: 3072,
    modelfile: 'FROM /blobs/sha256-1\nSYSTEM """Be kind."""',
    template: '{{ .Prompt }}',
    system: 'Be kind.',
    license: Array.from({ length: 10 }, (_, i) => `license line ${i + 1}`).join('\n'),
    parameters: [
      { name: 'temperature', value: '0.6' },
      { name: 'stop', value: '"<|eot_id|>"' },
    ],
  };

  it('shows info: facts, capabilities, parameters, system and the head of the license', async () => {
    const host = new FakeHost();
    host.model.info = tutor;
    await run('/show', host);
    const text = host.onlyShown;
    expect(text).toContain('Model tutor\n  architecture      llama\n  parameters        3.2B');
    expect(text).toContain('  context length    131072');
    expect(text).toContain('  num_ctx in use    8k');
    expect(text).toContain('Capabilities\n  completion, tools');
    expect(text).toContain('System\n  Be kind.');
    expect(text).toContain('  license line 4\n  … 6 more lines (/show license)');
    expect(text).not.toContain('license line 5');
  });

  it('shows each text in full, with ollama run’s words when there is none', async () => {
    const host = new FakeHost();
    host.model.info = tutor;
    host.options.values = { top_k: 5 };
    for (const topic of ['modelfile', 'template', 'system', 'license', 'parameters'])
      await run(`/show ${topic}`, host);
    expect(host.shown).toEqual([
      tutor.modelfile,
      tutor.template,
      'System prompt of the model:\nBe kind.',
      tutor.license,
      [
        'Model defined parameters:',
        'temperature                    0.6',
        'stop                           "<|eot_id|>"',
        '',
        'User defined parameters:',
        'top_k                          5',
      ].join('\n'),
    ]);
    // A window the user chose (--num-ctx, /set) is listed with what they set.
    host.model.numCtxSource = 'flag';
    host.model.numCtx = 3000;
    await run('/show parameters', host);
    expect(host.shown.at(-1)).toMatch(/User defined parameters:\ntop_k {26}5\nnum_ctx {24}3000$/);
    const bare = new FakeHost();
    bare.model.info = { name: 'bare', capabilities: ['completion'] };
    for (const topic of ['system', 'template', 'license', 'parameters']) await run(`/show ${topic}`, bare);
    expect(bare.shown).toEqual([
      'No system message was specified for this model.',
      'No prompt template was specified for this model.',
      'No license was specified for this model.',
      'No parameters were specified for this model.',
    ]);
  });

  it('says when the user prompt replaces the model’s, refuses unknown topics, and waits for a model', async () => {
    const host = new FakeHost();
    host.model.info = tutor;
    host.model.system = 'Mine.';
    await run('/show system', host);
    expect(host.onlyShown).toContain('replaced by yours');
    await run('/show weights', host);
    expect(host.notices[0].text).toContain('Unknown topic "weights". Usage: /show [info|modelfile');
    expect((await run('/show')).onlyShown).toBe('No model is connected yet.');
  });
});

describe('session commands', () => {
  it('hand their argument to the session host', async () => {
    const host = new FakeHost();
    for (const line of [
      '/sessions',
      '/resume plans',
      '/rename my plans',
      '/delete 2026',
      '/save out.md',
      '/load in.json',
      '/history',
      '/uncompact',
    ])
      await run(line, host);
    expect(host.sessionCalls).toEqual([
      'list',
      'resume plans',
      'rename my plans',
      'delete 2026',
      'save out.md',
      'load in.json',
      'history',
      'uncompact',
    ]);
  });

  it('without the argument they need, say what is missing and how to call them', async () => {
    for (const [line, usage] of [
      ['/resume', '/resume <id|name>'],
      ['/rename', '/rename <name>'],
      ['/delete', '/delete <id|name>'],
      ['/save', '/save <file.md|file.json>'],
      ['/load', '/load <model|file.json>'],
    ]) {
      const host = await run(line);
      expect(host.sessionCalls).toEqual([]);
      expect(host.notices).toHaveLength(1);
      expect(host.notices[0].level).toBe('error');
      expect(host.notices[0].text).toContain(`Usage: ${usage}`);
    }
  });
});

describe('/pin, /pins, /unpin', () => {
  it('pins a note, or the last message alone, lists them numbered, and unpins by number', async () => {
    const host = new FakeHost();
    await run('/pin deploy only from tag v2.14.3', host);
    host.lastUserText = 'Never touch prod on Fridays.';
    await run('/pin', host);
    expect(host.model.pins).toEqual(['deploy only from tag v2.14.3', 'Never touch prod on Fridays.']);
    await run('/pins', host);
    expect(host.onlyShown).toContain(
      'Pinned notes (in every request):\n  1. deploy only from tag v2.14.3\n  2. Never touch prod on Fridays.',
    );
    await run('/unpin 1', host);
    expect(host.model.pins).toEqual(['Never touch prod on Fridays.']);
    await run('/unpin 5', host);
    expect(host.model.pins).toHaveLength(1);
  });

  it('says why a pin was refused, and pins nothing with nothing to pin', async () => {
    const host = new FakeHost();
    await run('/pin', host);
    host.pinRefusal = 'Not pinned: it would not fit.';
    await run('/pin a very long note', host);
    expect(host.model.pins).toEqual([]);
  });
});
