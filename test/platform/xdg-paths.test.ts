import { describe, expect, it } from 'vitest';
import { configPath, dataDir, displayPath } from '../../src/platform/xdg-paths.js';

const HOME = '/home/ada';

describe('configPath', () => {
  it('prefers the -c flag over everything, and marks it explicit', () => {
    const env = { HOME, OCHAT_CONFIG: '/etc/ochat.yml', XDG_CONFIG_HOME: '/xdg' };
    expect(configPath({ flag: './mine.yml', env })).toEqual({ path: './mine.yml', explicit: true });
  });

  it('uses $OCHAT_CONFIG next, also explicit', () => {
    const env = { HOME, OCHAT_CONFIG: '/etc/ochat.yml', XDG_CONFIG_HOME: '/xdg' };
    expect(configPath({ env })).toEqual({ path: '/etc/ochat.yml', explicit: true });
  });

  it('falls back to $XDG_CONFIG_HOME, then ~/.config, neither explicit', () => {
    expect(configPath({ env: { HOME, XDG_CONFIG_HOME: '/xdg' } })).toEqual({
      path: '/xdg/ochat/config.yml',
      explicit: false,
    });
    expect(configPath({ env: { HOME } })).toEqual({
      path: '/home/ada/.config/ochat/config.yml',
      explicit: false,
    });
  });

  it('ignores empty values and a relative $XDG_CONFIG_HOME, as the XDG spec asks', () => {
    const env = { HOME, OCHAT_CONFIG: '', XDG_CONFIG_HOME: 'relative/dir' };
    expect(configPath({ flag: '', env }).path).toBe('/home/ada/.config/ochat/config.yml');
  });

  it('expands a leading ~ that no shell expanded', () => {
    expect(configPath({ flag: '~/ochat.yml', env: { HOME } }).path).toBe('/home/ada/ochat.yml');
    expect(configPath({ env: { HOME, OCHAT_CONFIG: '~/cfg/o.yml' } }).path).toBe('/home/ada/cfg/o.yml');
  });
});

describe('dataDir', () => {
  it('uses $XDG_DATA_HOME, else ~/.local/share', () => {
    expect(dataDir({ HOME, XDG_DATA_HOME: '/data' })).toBe('/data/ochat');
    expect(dataDir({ HOME })).toBe('/home/ada/.local/share/ochat');
    expect(dataDir({ HOME, XDG_DATA_HOME: '' })).toBe('/home/ada/.local/share/ochat');
  });
});

describe('displayPath', () => {
  it('abbreviates the home directory to ~ and leaves other paths alone', () => {
    expect(displayPath('/home/ada/.config/ochat/config.yml', { HOME })).toBe('~/.config/ochat/config.yml');
    expect(displayPath('/home/ada', { HOME })).toBe('~');
    expect(displayPath('/home/adam/x.yml', { HOME })).toBe('/home/adam/x.yml');
    expect(displayPath('/etc/ochat.yml', { HOME })).toBe('/etc/ochat.yml');
  });
});
