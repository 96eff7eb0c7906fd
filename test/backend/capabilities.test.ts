import { describe, expect, it } from 'vitest';
import { supportsThinking, supportsTools } from '../../src/backend/capabilities.js';

describe('capabilities', () => {
  it('answers from the capability list', () => {
    const info = { capabilities: ['completion', 'tools', 'thinking'] };
    expect(supportsTools(info)).toBe(true);
    expect(supportsThinking(info)).toBe(true);
    const plain = { capabilities: ['completion', 'vision'] };
    expect(supportsTools(plain)).toBe(false);
    expect(supportsThinking(plain)).toBe(false);
  });
});
