/**
 * The probe chat: a scripted conversation with typed probes planted in it (DESIGN §11, Factory's
 * probe method), and the deterministic scorer that says which probes still reach the model. One
 * module for `npm run bench` (emulated summarizers) and `ochat eval compaction` (the user's own).
 */
import type { Message } from '../conversation/message.js';

/** What a probe is: each kind is a way real summarizers lose what users need back. */
export type ProbeKind =
  | 'fact'
  | 'path'
  | 'number'
  | 'command'
  | 'identifier'
  | 'decision'
  | 'constraint'
  | 'updated'
  | 'paste'
  | 'tool-output'
  | 'pin';

/** The kinds in the order tables list them, with their labels. */
export const PROBE_KINDS: readonly (readonly [ProbeKind, string])[] = [
  ['fact', 'plain fact'],
  ['path', 'path'],
  ['number', 'number'],
  ['command', 'command'],
  ['identifier', 'identifier'],
  ['decision', 'decision'],
  ['constraint', 'constraint'],
  ['updated', 'updated fact'],
  ['paste', 'fact in a paste'],
  ['tool-output', 'fact in a tool output'],
  ['pin', 'pinned note'],
];

/** One planted probe. */
export interface Probe {
  id: string;
  kind: ProbeKind;
  /** What must reach the model, exactly as planted (for an updated fact: the newer value). */
  value: string;
  /** An updated fact's earlier value: it must not be presented as current once the update is made. */
  stale?: string;
  /** The round whose turns plant it (an updated fact: its first value). */
  round: number;
  /** An updated fact: the round whose turns give the newer value. */
  updateRound?: number;
  /** Asked after the last compaction; the answer must contain `value`. */
  question: string;
  /** What a `recall` search for it would ask (absent for pins: they are in every request, not in the history). */
  recallQuery?: string;
  /**
   * An exact detail that compaction promises to keep with any summarizer (the details check of
   * the user's and the assistant's words, and pins). Facts in pastes and tool outputs are the
   * history's (`recall`); plain facts, decisions and constraints are the summary's own words.
   */
  exact: boolean;
}

/** The probes, two of each kind. */
export const PROBES: readonly Probe[] = [
  probe('fact-1', 'fact', 'Henrietta', 0, 'What is the name of my sister?', 'sister'),
  probe('fact-2', 'fact', 'Bluebird', 1, 'What is the codename of the project?', 'codename'),
  probe(
    'path-1',
    'path',
    '/etc/payments/db.conf',
    0,
    'Which file does the payments service read its settings from?',
    'payments settings',
  ),
  probe(
    'path-2',
    'path',
    'test/integration/ledger-sync.spec.ts',
    1,
    'In which file does the flaky test live?',
    'flaky test',
  ),
  probe('number-1', 'number', '48213', 0, 'How many entries does the staging cache hold at peak?', 'cache'),
  probe('number-2', 'number', '1740', 1, 'What is the monthly budget for the GPU box, in dollars?', 'budget'),
  probe(
    'command-1',
    'command',
    'make reindex SHARDS=6 --no-cache',
    0,
    'Which command rebuilds the search index?',
    'rebuild the index',
  ),
  probe(
    'command-2',
    'command',
    'kubectl rollout restart deploy/ledger -n fin-prod',
    1,
    'Which command deploys the ledger?',
    'deploy',
  ),
  probe('identifier-1', 'identifier', 'ORD-58213', 0, "What is the customer's order id?", 'order id'),
  probe('identifier-2', 'identifier', '9f3c2ab', 1, 'Which commit was the bad release?', 'bad release'),
  probe('decision-1', 'decision', 'SQLite', 0, 'Where did we decide to keep the sessions?', 'sessions'),
  probe(
    'decision-2',
    'decision',
    'REST',
    1,
    'Which API style did we decide the public API keeps?',
    'public API',
  ),
  probe('constraint-1', 'constraint', 'UTC', 0, 'In which time zone must API timestamps be?', 'timestamp'),
  probe(
    'constraint-2',
    'constraint',
    'Priya',
    1,
    'Whom must I ask before adding a new dependency?',
    'dependencies',
  ),
  {
    ...probe(
      'updated-1',
      'updated',
      '6544',
      0,
      'Which port does the staging database listen on now?',
      'staging database port',
    ),
    stale: '5433',
    updateRound: 4,
  },
  {
    ...probe('updated-2', 'updated', '2026-04-02', 1, 'On which date is the release planned now?', 'release'),
    stale: '2026-03-14',
    updateRound: 5,
  },
  probe(
    'paste-1',
    'paste',
    '/srv/ledger/src/writer.ts:418:22',
    0,
    'In the stack trace I pasted, at which file, line and column did LedgerWriter.flush fail?',
    'LedgerWriter.flush',
  ),
  probe(
    'paste-2',
    'paste',
    'max_connections=37',
    1,
    'In the log I pasted, what max_connections was reached?',
    'max_connections',
  ),
  probe(
    'tool-1',
    'tool-output',
    '+1-555-0142',
    0,
    'What is the on-call phone number in the deploy notes?',
    'on-call phone',
  ),
  probe('tool-2', 'tool-output', '3.18.7', 1, 'Which version does the VERSION file give?', 'api-gateway'),
  probe('pin-1', 'pin', 'British', 0, 'Which English spelling did I pin?'),
  probe('pin-2', 'pin', 'read-only', 0, 'What did I pin about the production database?'),
];

function probe(
  id: string,
  kind: ProbeKind,
  value: string,
  round: number,
  question: string,
  recallQuery?: string,
): Probe {
  const exact = ['path', 'number', 'command', 'identifier', 'updated', 'pin'].includes(kind);
  return { id, kind, value, round, question, ...(recallQuery ? { recallQuery } : {}), exact };
}

/** The notes the probe chat pins (`/pin`): in every request, whatever the summarizer keeps. */
export const PROBE_PINS: readonly string[] = [
  'Always answer in British English spelling.',
  'The production database is read-only for this task.',
];

/** A tool call the scripted assistant made and what it returned. */
export interface ScriptedTool {
  name: string;
  args: Record<string, unknown>;
  output: string;
  /** The one-line summary compaction keeps (the tool's own template's kind of line). */
  summary: string;
}

/** One scripted turn: the user's message, maybe a tool call, and the assistant's reply. */
export interface ScriptedTurn {
  user: string;
  tool?: ScriptedTool;
  reply: string;
}

/** A stack trace of 61 frames with LedgerWriter.flush in the middle, as users paste them. */
function stackTrace(): string {
  const frames = Array.from({ length: 60 }, (_, i) => {
    const module = ['router', 'middleware', 'queue', 'pool', 'codec'][i % 5];
    return `    at ${module[0].toUpperCase()}${module.slice(1)}.step${i} (/srv/ledger/node_modules/${module}/lib/index.js:${100 + i * 7}:${(i % 30) + 3})`;
  });
  frames.splice(30, 0, '    at LedgerWriter.flush (/srv/ledger/src/writer.ts:418:22)');
  return ['Error: write after end', ...frames].join('\n');
}

/** A service log of 50 lines with the pool's error in the middle. */
function serviceLog(): string {
  const lines = Array.from(
    { length: 50 },
    (_, i) =>
      `2026-02-11T09:${String(10 + (i % 50)).padStart(2, '0')}:0${i % 10}Z INFO worker-${i % 4} handled job ${7000 + i * 13} in ${20 + (i % 17)} ms`,
  );
  lines.splice(25, 0, '2026-02-11T09:35:00Z ERROR pool exhausted: max_connections=37 reached, 12 waiting');
  return lines.join('\n');
}

/** The turns that plant probes, by round (a probe's own round, an update's `updateRound`). */
const PLANTING: Readonly<Record<number, readonly ScriptedTurn[]>> = {
  0: [
    {
      user: 'My sister Henrietta is visiting next week, so I will be slower to answer.',
      reply: 'Noted, enjoy the visit.',
    },
    {
      user: 'The payments service reads its settings from /etc/payments/db.conf on the host.',
      reply: 'Understood, that is where I will look for its settings.',
    },
    { user: 'At peak the staging cache holds 48213 entries.', reply: 'That is a useful baseline.' },
    {
      user: 'To rebuild the search index run `make reindex SHARDS=6 --no-cache` from the repository root.',
      reply: 'Got it, I will use that when the index needs rebuilding.',
    },
    {
      user: "The customer's order id is ORD-58213, please keep it at hand.",
      reply: 'I will keep it at hand.',
    },
    {
      user: 'Should we keep the sessions in Redis or in SQLite?',
      reply: 'Decision: the sessions go into SQLite; Redis stays out of the session path.',
    },
    { user: 'Constraint: every timestamp the API returns must be in UTC.', reply: 'Agreed, no local times.' },
    { user: 'The staging database listens on port 5433.', reply: 'Noted.' },
    {
      user: `This crashed the ledger last night:\n${stackTrace()}`,
      reply: 'That is a write after the stream ended; the flush runs too late.',
    },
    {
      user: 'What do the deploy notes say about who to call?',
      tool: {
        name: 'read_file',
        args: { path: 'deploy/notes.md' },
        output:
          '# Deploy notes\n\nDeploys happen on weekdays only.\nThe on-call phone is +1-555-0142, answered day and night.\nRollbacks need a second reviewer.\n',
        summary: 'read deploy/notes.md (5 lines)',
      },
      reply: 'The notes name an on-call phone and say deploys happen on weekdays only.',
    },
  ],
  1: [
    { user: 'The codename of the project is Bluebird, use it in commit messages.', reply: 'Will do.' },
    {
      user: 'The flaky test lives in test/integration/ledger-sync.spec.ts and fails one run in ten.',
      reply: 'I will look at its timing first.',
    },
    { user: 'Our monthly budget for the GPU box is 1740 dollars.', reply: 'That rules out the bigger card.' },
    {
      user: 'Deploy the ledger with `kubectl rollout restart deploy/ledger -n fin-prod` after the tests pass.',
      reply: 'Understood, only after the tests pass.',
    },
    { user: 'The bad release was commit 9f3c2ab, we reverted it.', reply: 'Good that it is reverted.' },
    {
      user: 'We decided: the public API stays on REST, no GraphQL this year.',
      reply: 'Noted, the public API stays as it is.',
    },
    {
      user: 'Rule for this repository: no new dependencies without asking Priya first.',
      reply: 'I will ask her before adding any.',
    },
    { user: 'The release is planned for 2026-03-14.', reply: 'That leaves a few weeks.' },
    {
      user: `The service log from this morning:\n${serviceLog()}`,
      reply: 'The pool ran out of connections once.',
    },
    {
      user: 'Which version is deployed?',
      tool: {
        name: 'run_command',
        args: { command: 'cat VERSION' },
        output: 'api-gateway 3.18.7\n',
        summary: 'ran `cat VERSION` (exit 0)',
      },
      reply: 'The VERSION file names the gateway and its version.',
    },
  ],
  4: [
    {
      user: 'Update: the staging database now listens on port 6544.',
      reply: 'Updated, I will use the new port.',
    },
  ],
  5: [{ user: 'Update: the release moved to 2026-04-02.', reply: 'Noted, the new date stands.' }],
};

/** Topics the filler talks about: plain prose, no exact detail, so it neither helps nor hides a probe. */
const TOPICS = [
  'how the retry logic behaves under load',
  'naming of the internal modules',
  'whether the cache should be warmed at start',
  'the wording of the error messages',
  'how the team reviews pull requests',
  'the layout of the settings screen',
  'splitting the ledger into smaller services',
  'what to log and what to leave out',
];

/** One filler turn of about 110 tokens. */
function fillerTurn(n: number): ScriptedTurn {
  const topic = TOPICS[n % TOPICS.length];
  return {
    user: `Let us talk about ${topic} for a moment. What would you change first, and why?`,
    reply: `About ${topic}: I would start small, measure what users notice, and change one thing at a time so that each change can be judged on its own. The rest can wait until the first change has shown whether it helps, and the team agrees on what comes next.`,
  };
}

/** Estimated tokens of one filler turn (4 chars a token, as the default estimate). */
const FILLER_TURN_TOKENS = 110;

/** How many rounds the chat has by default: ten compactions and more, one per round. */
export const PROBE_ROUNDS = 12;

/**
 * The turns of `round`: its probes' turns, then enough filler (about 40% of the window) that the
 * round ends over the compaction budget, so each round compacts once.
 */
export function probeRoundTurns(round: number, numCtx: number): ScriptedTurn[] {
  const count = Math.max(4, Math.ceil((numCtx * 0.4) / FILLER_TURN_TOKENS));
  return [
    ...(PLANTING[round] ?? []),
    ...Array.from({ length: count }, (_, i) => fillerTurn(round * 100 + i)),
  ];
}

/** Appends `turn` to `transcript` as messages (the next turn's number, ids in order), at `at`. */
export function appendScriptedTurn(transcript: Message[], turn: ScriptedTurn, at: string): void {
  const number = (transcript.at(-1)?.turn ?? -1) + 1;
  const add = (message: Omit<Message, 'id' | 'turn' | 'at'>) =>
    transcript.push({ ...message, id: transcript.length, turn: number, at });
  add({ role: 'user', content: turn.user });
  if (turn.tool) {
    add({
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: turn.tool.name, arguments: turn.tool.args } }],
    });
    add({
      role: 'tool',
      tool_name: turn.tool.name,
      tool_args: turn.tool.args,
      content: turn.tool.output,
      tool_summary: turn.tool.summary,
    });
  }
  add({ role: 'assistant', content: turn.reply });
}

/** The probes planted by the end of `round` (all of them by default). */
export function plantedProbes(round = Number.POSITIVE_INFINITY): Probe[] {
  return PROBES.filter((p) => p.round <= round);
}

/**
 * Whether the probe reaches the model in `text` (what it is sent) at the end of `round`: its value
 * verbatim; for an updated fact once updated, the newer value, with the older one, if still there,
 * only before it (the history read in order, the newer wins).
 */
export function probeInView(probe: Probe, text: string, round = Number.POSITIVE_INFINITY): boolean {
  const updated = probe.updateRound === undefined || round >= probe.updateRound;
  if (!updated) return text.includes(probe.stale ?? probe.value);
  const at = text.lastIndexOf(probe.value);
  if (at < 0) return false;
  return probe.stale === undefined || text.lastIndexOf(probe.stale) < at;
}

/**
 * Whether a model's answer to the probe's question gives its value: as a word of its own, any
 * case (models capitalise and quote), backticks and quotes around it allowed; an updated fact's
 * answer must not also name the older value (which of the two would be current is unclear).
 */
export function answerGivesProbe(probe: Probe, answer: string): boolean {
  const says = (value: string) =>
    new RegExp(`(?<![\\w.-])${escapeRegExp(value)}(?![\\w-])`, 'i').test(answer);
  return says(probe.value) && !(probe.stale !== undefined && says(probe.stale));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether a recall search's result (as the model reads it) holds the probe's value verbatim. */
export function recallFindsProbe(probe: Probe, result: string): boolean {
  return result.includes(probe.value);
}

/** How many of some probes passed, by kind and in all. */
export interface KindScore {
  kind: ProbeKind;
  label: string;
  passed: number;
  total: number;
}

/** `passed` counted by kind (kinds without a probe among `probes` left out), in PROBE_KINDS order. */
export function scoreByKind(probes: readonly Probe[], passed: (probe: Probe) => boolean): KindScore[] {
  return PROBE_KINDS.flatMap(([kind, label]) => {
    const ofKind = probes.filter((p) => p.kind === kind);
    if (!ofKind.length) return [];
    return [{ kind, label, passed: ofKind.filter(passed).length, total: ofKind.length }];
  });
}

/** The share of `probes` that passed, in percent (100 when there are none). */
export function retention(probes: readonly Probe[], passed: (probe: Probe) => boolean): number {
  if (!probes.length) return 100;
  return (probes.filter(passed).length / probes.length) * 100;
}
