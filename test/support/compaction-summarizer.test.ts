import { describe, expect, it } from 'vitest';
import {
  buildMissingDetailsRequest,
  buildSummarizerRequest,
} from '../../src/compaction/summarizer-prompt.js';
import { ELEVEN } from '../compaction/eleven-details.js';
import {
  gistOnly,
  isMissingDetailsRequest,
  isSummarizerRequest,
  keepEverything,
} from './compaction-summarizer.js';
import type { ChatRequestRecord } from './emulator.js';

/** A summarizer request as the emulator records it. */
const recorded = ({ system, prompt }: { system: string; prompt: string }) =>
  ({
    body: {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: prompt },
      ],
    },
  }) as unknown as ChatRequestRecord;

describe('gistOnly', () => {
  const details = ELEVEN.map(([, , d]) => d);
  const lines = ELEVEN.map(([, sentence], i) => `[${i}] user: ${sentence}`);

  it('keeps the gist and drops every exact detail, though the request lists them', () => {
    const request = recorded(
      buildSummarizerRequest({
        lines,
        maxChars: 2000,
        details,
        previousNarrative: 'Earlier talk about deploys.',
      }),
    );
    const { content } = gistOnly(request);
    expect(content).toContain('Earlier talk about deploys.');
    expect(content).toContain('postgres on the payments host');
    for (const detail of details) expect(content).not.toContain(detail);
  });

  it('drops them again when asked once more, and stays within the stated limit', () => {
    const request = recorded(
      buildMissingDetailsRequest({ summary: 'The user gave settings.', missing: details, maxChars: 15 }),
    );
    expect(isSummarizerRequest(request) && isMissingDetailsRequest(request)).toBe(true);
    const { content } = gistOnly(request);
    for (const detail of details) expect(content).not.toContain(detail);
    expect(content?.length).toBeLessThanOrEqual(15);
  });
});

describe('keepEverything', () => {
  const details = ELEVEN.map(([, , d]) => d);
  const lines = ELEVEN.map(([, sentence], i) => `[${i}] user: ${sentence}`);

  it('keeps the previous summary and every detail it is shown, when they fit the limit', () => {
    const request = recorded(
      buildSummarizerRequest({
        lines,
        maxChars: 4000,
        details,
        previousNarrative: 'Earlier talk about deploys.',
      }),
    );
    const { content } = keepEverything(request);
    expect(content).toMatch(/^Earlier talk about deploys\./);
    for (const detail of details) expect(content).toContain(detail);
    expect(content).not.toContain('[0] user:');
  });

  it('drops the oldest words first to stay within the stated limit', () => {
    const request = recorded(buildSummarizerRequest({ lines, maxChars: 120, details }));
    const { content } = keepEverything(request);
    expect(content?.length).toBeLessThanOrEqual(120);
    expect(content).toContain(ELEVEN.at(-1)?.[2]);
    expect(content).not.toContain(ELEVEN[0][2]);
  });
});
