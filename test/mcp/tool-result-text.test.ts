import { describe, expect, it } from 'vitest';
import { toolResultText } from '../../src/mcp/tool-result-text.js';

describe('toolResultText', () => {
  it('keeps text, names images, audio, resources and links, and adds structured content', () => {
    const result = toolResultText({
      content: [
        { type: 'text', text: 'Here it is:' },
        { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4000) },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'test://r/1', name: 'Resource 1', description: 'first' },
      ],
      structuredContent: { temperature: 21 },
    });
    expect(result.ok).toBe(true);
    expect(result.text).toBe(
      [
        'Here it is:',
        '[image: image/png, 3.0 kB]',
        '[audio: audio/wav, 3 B]',
        '[resource file:///a.txt (text/plain)]',
        'inside',
        '[resource file:///b.bin] 3 B of binary content',
        '[resource link: Resource 1 test://r/1 — first]',
        'structured content:',
        '{\n  "temperature": 21\n}',
      ].join('\n'),
    );
    expect(result.kinds).toEqual({
      text: 1,
      image: 1,
      audio: 1,
      resource: 2,
      resource_link: 1,
      structured: 1,
    });
  });

  it('does not repeat structured content the text already carries, and reports isError', () => {
    expect(
      toolResultText({
        content: [{ type: 'text', text: '{"a":1}' }],
        structuredContent: { a: 1 },
        isError: true,
      }),
    ).toEqual({ ok: false, text: '{"a":1}', kinds: { text: 1, structured: 1 } });
    expect(toolResultText(null)).toEqual({ ok: true, text: '', kinds: {} });
  });
});
