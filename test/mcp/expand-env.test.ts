/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is what the config file holds */
import { describe, expect, it } from 'vitest';
import { expandEnvReferences } from '../../src/mcp/expand-env.js';

describe('expandEnvReferences', () => {
  it('fills ${VAR} and ${VAR:-fallback}, naming what is unset', () => {
    expect(
      expandEnvReferences(
        { Authorization: 'Bearer ${TOKEN}', dir: '${HOME}/x', mode: '${MODE:-fast}', gone: '${NOPE}' },
        { TOKEN: 't0k', HOME: '/h' },
      ),
    ).toEqual({
      values: { Authorization: 'Bearer t0k', dir: '/h/x', mode: 'fast', gone: '' },
      missing: ['NOPE'],
    });
  });

  it('leaves text without references alone', () => {
    expect(expandEnvReferences({ a: '$HOME {x}' }, {})).toEqual({ values: { a: '$HOME {x}' }, missing: [] });
  });
});
