import { describe, expect, it } from 'vitest';
import { withoutImages } from '../../src/attachments/without-images.js';

describe('withoutImages', () => {
  it('leaves the images out and says so in their place; other messages untouched', () => {
    const plain = { role: 'assistant' as const, content: 'ok' };
    expect(
      withoutImages([
        { role: 'user', content: 'what is @a.png', images: ['aGk='] },
        plain,
        { role: 'user', content: '', images: ['aGk=', 'aGk='] },
      ]),
    ).toEqual([
      { role: 'user', content: 'what is @a.png\n\n[an image left out here: this model cannot see images]' },
      plain,
      { role: 'user', content: '[2 images left out here: this model cannot see images]' },
    ]);
  });
});
