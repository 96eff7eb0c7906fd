import { describe, expect, it } from 'vitest';
import { canonicalModelName, findInstalledModel, sameModel } from '../../src/backend/model-name.js';

describe('model names', () => {
  it('imply :latest and ignore case, as Ollama does', () => {
    expect(canonicalModelName(' Qwen3 ')).toBe('qwen3:latest');
    expect(canonicalModelName('hf.co/Org/Model:Q4')).toBe('hf.co/org/model:q4');
    expect(canonicalModelName('host:5000/org/model')).toBe('host:5000/org/model:latest');
    expect(sameModel('M1', 'm1:latest')).toBe(true);
    expect(sameModel('m1', 'm10')).toBe(false);
  });

  it('find the installed model a typed name means', () => {
    const installed = ['m1:latest', 'qwen3:8b', 'Mixed:latest'];
    expect(findInstalledModel('M1', installed)).toBe('m1:latest');
    expect(findInstalledModel('QWEN3:8B', installed)).toBe('qwen3:8b');
    expect(findInstalledModel('mixed', installed)).toBe('Mixed:latest');
    // Typed as installed, the tag left off: kept as typed (it is what the user sees and the server resolves).
    expect(findInstalledModel('m1', installed)).toBe('m1');
    expect(findInstalledModel('qwen3', installed)).toBeUndefined();
    expect(findInstalledModel('m2', installed)).toBeUndefined();
  });
});
