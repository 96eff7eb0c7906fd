/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is what the config file holds */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfigText } from '../../src/config/parse-config.js';

function errorFor(text: string): ConfigError {
  try {
    parseConfigText(text, 'config.yml');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('mcp_servers in config.yml', () => {
  it('takes stdio and HTTP servers, filling in the defaults', () => {
    const config = parseConfigText(
      [
        'mcp_servers:',
        '  everything:',
        '    command: mcp-server-everything',
        '    args: [stdio]',
        '    env: { TOKEN: "${HOME}" }',
        '    tools: [echo, get-sum]',
        '  remote:',
        '    url: http://127.0.0.1:3001/mcp',
        '    headers: { Authorization: "Bearer ${TOKEN}" }',
        '    confirm: false',
        '    timeout_s: 5',
        'mcp_start_timeout_s: 3',
        'tools:',
        '  max_definitions_share: 0.4',
      ].join('\n'),
      'config.yml',
    );
    expect(config.mcp_servers.everything).toEqual({
      command: 'mcp-server-everything',
      args: ['stdio'],
      env: { TOKEN: '${HOME}' },
      headers: {},
      tools: ['echo', 'get-sum'],
      exclude_tools: [],
      confirm: true,
      timeout_s: 60,
      enabled: true,
    });
    expect(config.mcp_servers.remote).toMatchObject({
      url: 'http://127.0.0.1:3001/mcp',
      confirm: false,
      timeout_s: 5,
    });
    expect(config.mcp_start_timeout_s).toBe(3);
    expect(config.tools.max_definitions_share).toBe(0.4);
  });

  it('an empty section means no servers', () => {
    expect(parseConfigText('mcp_servers:\n', 'config.yml').mcp_servers).toEqual({});
  });

  it('reports a mistyped key of a server at its line, with a suggestion', () => {
    const error = errorFor('mcp_servers:\n  fs:\n    comand: x\n');
    expect(error.message).toContain(
      'config.yml:3:5: mcp_servers.fs.comand: unknown key (did you mean "command"?)',
    );
  });

  it('needs exactly one of command and url', () => {
    expect(errorFor('mcp_servers:\n  fs:\n    args: [a]\n').message).toMatch(
      /config\.yml:3:5: mcp_servers\.fs: needs exactly one of command \(stdio\) or url \(HTTP\)/,
    );
    expect(errorFor('mcp_servers:\n  fs:\n    command: a\n    url: http://x/\n').message).toContain(
      'needs exactly one of command',
    );
  });

  it('refuses a server name the model could not see in a tool name, and a bad URL or timeout', () => {
    expect(errorFor('mcp_servers:\n  "my server":\n    command: x\n').message).toContain(
      'a server name may use only letters, digits, - and _',
    );
    expect(errorFor('mcp_servers:\n  r:\n    url: ftp://x\n').message).toContain(
      'mcp_servers.r.url: must be an http:// or https:// URL',
    );
    expect(errorFor('mcp_servers:\n  r:\n    url: http://x\n    timeout_s: 0\n').message).toContain(
      'mcp_servers.r.timeout_s: must be a number of seconds between 1 and 86400, got 0',
    );
    expect(errorFor('mcp_servers:\n  r:\n    command: x\n    env: { A: 1 }\n').message).toContain(
      'mcp_servers.r.env.A: must be an environment value (a text), got 1',
    );
  });
});
