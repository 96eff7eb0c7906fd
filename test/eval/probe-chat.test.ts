import { describe, expect, it } from 'vitest';
import { findDetails } from '../../src/compaction/details.js';
import type { Message } from '../../src/conversation/message.js';
import {
  answerGivesProbe,
  appendScriptedTurn,
  PROBE_KINDS,
  PROBE_PINS,
  PROBE_ROUNDS,
  PROBES,
  type Probe,
  plantedProbes,
  probeInView,
  probeRoundTurns,
  retention,
  scoreByKind,
} from '../../src/eval/probe-chat.js';

const byId = (id: string) => PROBES.find((p) => p.id === id) as Probe;
const port = byId('updated-1');

/** The whole scripted chat at `numCtx`, as messages. */
function wholeChat(numCtx: number): Message[] {
  const transcript: Message[] = [];
  for (let round = 0; round < PROBE_ROUNDS; round++)
    for (const turn of probeRoundTurns(round, numCtx))
      appendScriptedTurn(transcript, turn, '2026-01-01T00:00:00Z');
  return transcript;
}

describe('the probe chat', () => {
  it('has two probes of every kind', () => {
    for (const [kind] of PROBE_KINDS) expect(PROBES.filter((p) => p.kind === kind)).toHaveLength(2);
  });

  it('plants every probe in its round (an update in its own round), and the pins in the pinned notes', () => {
    for (const probe of PROBES) {
      if (probe.kind === 'pin') {
        expect(PROBE_PINS.some((pin) => pin.includes(probe.value))).toBe(true);
        continue;
      }
      const text = (round: number) => JSON.stringify(probeRoundTurns(round, 2048));
      expect(text(probe.round)).toContain(probe.stale ?? probe.value);
      if (probe.updateRound !== undefined) expect(text(probe.updateRound)).toContain(probe.value);
      // Nowhere else: a second mention would let a probe survive by chance.
      const rounds = Array.from({ length: PROBE_ROUNDS }, (_, r) => r).filter((r) =>
        text(r).includes(probe.value),
      );
      expect(rounds).toEqual([probe.updateRound ?? probe.round]);
    }
  });

  it('puts facts of tool outputs only in the tool output, and those of pastes in a long message', () => {
    const chat = wholeChat(4096);
    for (const probe of PROBES.filter((p) => p.kind === 'tool-output'))
      expect(chat.filter((m) => m.content.includes(probe.value)).map((m) => m.role)).toEqual(['tool']);
    for (const probe of PROBES.filter((p) => p.kind === 'paste')) {
      const [message] = chat.filter((m) => m.content.includes(probe.value));
      expect(message.role).toBe('user');
      expect(message.content.length).toBeGreaterThan(3000);
    }
  });

  it('fills each round with talk that holds no exact detail, more of it in a larger window', () => {
    const filler = probeRoundTurns(3, 4096);
    expect(filler.length).toBeGreaterThan(probeRoundTurns(3, 2048).length);
    for (const turn of filler) expect(findDetails(`${turn.user}\n${turn.reply}`)).toEqual([]);
  });

  it('numbers turns and messages in order, a tool call followed by its result', () => {
    const chat = wholeChat(2048);
    expect(chat.map((m) => m.id)).toEqual(chat.map((_, i) => i));
    const call = chat.findIndex((m) => m.tool_calls);
    expect(chat[call + 1]).toMatchObject({ role: 'tool', tool_name: 'read_file', turn: chat[call].turn });
    expect(chat[call - 1]).toMatchObject({ role: 'user', turn: chat[call].turn });
  });

  it('lists the probes planted by a round', () => {
    expect(plantedProbes(0).every((p) => p.round === 0)).toBe(true);
    expect(plantedProbes(1)).toHaveLength(PROBES.length);
  });
});

describe('probeInView', () => {
  it('finds a value only verbatim', () => {
    const path = byId('path-1');
    expect(probeInView(path, 'settings in /etc/payments/db.conf (host)')).toBe(true);
    expect(probeInView(path, 'settings in /etc/payments/db.cfg')).toBe(false);
    expect(probeInView(byId('command-1'), 'run make reindex SHARDS=6')).toBe(false);
  });

  it('before its update, looks for the first value; after it, the newer one must win', () => {
    expect(probeInView(port, 'port 5433', 3)).toBe(true);
    expect(probeInView(port, 'port 6544', 3)).toBe(false);
    expect(probeInView(port, 'port 5433', 4)).toBe(false);
    expect(probeInView(port, 'was 5433, now 6544')).toBe(true);
    // The older value after the newer reads as the current one.
    expect(probeInView(port, 'now 6544; the port is 5433')).toBe(false);
  });
});

describe('answerGivesProbe', () => {
  it('takes the value in any case, quoted or in backticks', () => {
    expect(answerGivesProbe(byId('decision-1'), 'We chose sqlite.')).toBe(true);
    expect(answerGivesProbe(byId('command-2'), '`kubectl rollout restart deploy/ledger -n fin-prod`')).toBe(
      true,
    );
    expect(answerGivesProbe(byId('identifier-1'), '"ORD-58213"')).toBe(true);
  });

  it('does not take it inside another word or number', () => {
    expect(answerGivesProbe(byId('decision-2'), 'Just restart it.')).toBe(false);
    expect(answerGivesProbe(byId('number-2'), '17400')).toBe(false);
    expect(answerGivesProbe(byId('identifier-1'), 'ORD-582130')).toBe(false);
    expect(answerGivesProbe(byId('tool-2'), '3.18.70')).toBe(false);
  });

  it('refuses an updated fact answered with both values', () => {
    expect(answerGivesProbe(port, '6544')).toBe(true);
    expect(answerGivesProbe(port, '5433')).toBe(false);
    expect(answerGivesProbe(port, 'It was 5433 and is 6544 now.')).toBe(false);
  });
});

describe('scores', () => {
  it('counts by kind in the table order, and the share in percent', () => {
    const passed = (p: Probe) => p.id.endsWith('-1');
    const scores = scoreByKind(PROBES, passed);
    expect(scores.map((s) => s.label)).toEqual(PROBE_KINDS.map(([, label]) => label));
    for (const score of scores) expect(score).toMatchObject({ passed: 1, total: 2 });
    expect(retention(PROBES, passed)).toBe(50);
    expect(retention([], passed)).toBe(100);
    expect(scoreByKind([byId('pin-1')], () => true)).toEqual([
      { kind: 'pin', label: 'pinned note', passed: 1, total: 1 },
    ]);
  });
});
