import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from './emulator.js';
import { base64Error, base64ErrorOffset, IMAGE_TOKENS, NO_VISION_ERROR } from './emulator-images.js';
import { countPromptTokens } from './emulator-tokens.js';

describe('base64ErrorOffset (Go encoding/base64 StdEncoding.Decode)', () => {
  it('accepts padded base64, with line breaks anywhere, and the empty string', () => {
    for (const ok of ['', 'aGk=', 'aGVsbG8=', 'YQ==', 'aGVs\nbG8=', 'aG\r\nk=\n', 'QUJD'])
      expect(base64ErrorOffset(ok), ok).toBeUndefined();
  });

  it('reports the offset Go reports: bad byte, missing padding, bad padding, trailing garbage', () => {
    expect(base64ErrorOffset('not base64!')).toBe(3); // the space
    expect(base64ErrorOffset('aGk')).toBe(0); // unpadded: the start of the last quantum
    expect(base64ErrorOffset('aGVsbG8')).toBe(4);
    expect(base64ErrorOffset('a===')).toBe(1);
    expect(base64ErrorOffset('aG=')).toBe(3); // "==" expected, input ends
    expect(base64ErrorOffset('aG=x')).toBe(2);
    expect(base64ErrorOffset('aGk=x')).toBe(4);
    expect(base64ErrorOffset('aGk-')).toBe(3); // URL alphabet is not standard
    expect(base64ErrorOffset('data:image/png;base64,iVBO')).toBe(4);
    expect(base64Error('é')).toBe('illegal base64 data at input byte 0');
  });
});

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({
    models: [{ name: 'llama3.2' }, { name: 'llava', capabilities: ['completion', 'vision'] }],
  });
});

afterEach(async () => {
  await emu.close();
});

async function chat(model: string, messages: unknown[], extra: Record<string, unknown> = {}) {
  const response = await fetch(`${emu.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({ model, messages, stream: false, ...extra }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const IMAGE = 'iVBORw0KGgo=';

describe('images on /api/chat', () => {
  it('refuses invalid base64 with HTTP 400 and the Go decoder error, for any model', async () => {
    for (const model of ['llava', 'llama3.2']) {
      expect(await chat(model, [{ role: 'user', content: 'x', images: ['not base64!'] }])).toEqual({
        status: 400,
        body: { error: 'illegal base64 data at input byte 3' },
      });
    }
  });

  it('refuses images of the wrong JSON type as Go unmarshalling does', async () => {
    expect((await chat('llava', [{ role: 'user', content: 'x', images: 'aGk=' }])).body).toEqual({
      error:
        'json: cannot unmarshal string into Go struct field Message.messages.images of type []api.ImageData',
    });
    expect((await chat('llava', [{ role: 'user', content: 'x', images: [42] }])).body).toEqual({
      error:
        'json: cannot unmarshal number into Go struct field Message.messages.images of type api.ImageData',
    });
  });

  it('sends a vision model the images, each costing IMAGE_TOKENS of the prompt', async () => {
    const messages = [{ role: 'user', content: 'what is it', images: [IMAGE, IMAGE] }];
    const { status, body } = await chat('llava', messages);
    expect(status).toBe(200);
    expect(body.prompt_eval_count).toBe(countPromptTokens(messages) + 2 * IMAGE_TOKENS);
    expect(emu.chats[0].keptMessages[0].images).toEqual([IMAGE, IMAGE]);
  });

  it('refuses images to a model without vision as Ollama (llama-server) does, after loading it', async () => {
    expect(await chat('llama3.2', [{ role: 'user', content: 'what is it', images: [IMAGE] }])).toEqual({
      status: 400,
      body: { error: NO_VISION_ERROR },
    });
    expect(emu.loads).toBe(1);
    // Without images the same model answers.
    expect((await chat('llama3.2', [{ role: 'user', content: 'hi' }])).status).toBe(200);
  });

  it('lets a model without vision answer when the image was truncated away before the runner', async () => {
    const messages = [
      { role: 'user', content: 'old', images: [IMAGE] },
      { role: 'assistant', content: 'a'.repeat(400) },
      { role: 'user', content: 'new' },
    ];
    const { status } = await chat('llama3.2', messages, { options: { num_ctx: 20 } });
    expect(status).toBe(200);
    expect(emu.chats[0].truncated).toBe(true);
  });
});
