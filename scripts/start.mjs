// `npm start -- <flags>`: builds dist/ only when what it is built from changed (its build id), so
// a start with nothing changed opens the chat at once (~0.3 s instead of a ~11 s build), then runs
// ochat with the flags. npm's banner above it (`> ochat@… start`) is erased on a terminal.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildCurrent } from './build-id.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The terminal rows npm's banner took: `\n> <name>@<version> <event>\n> <script> <args>\n`, then a
 * newline (npm ≥ 7, @npmcli/run-script); 0 when npm printed none (`--silent`) or we are not under npm.
 */
export function bannerRows(env, args, columns) {
  const script = env.npm_lifecycle_script;
  if (!script || !env.npm_lifecycle_event || env.npm_config_loglevel === 'silent') return 0;
  const id = env.npm_package_name ? `${env.npm_package_name}@${env.npm_package_version}` : undefined;
  const lines = [
    '',
    `> ${id ? `${id} ` : ''}${env.npm_lifecycle_event}`,
    ...`> ${script.trim().replace(/\n/g, '\n> ')}${args.length ? ` ${args.join(' ')}` : ''}`.split('\n'),
    '',
  ];
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil([...line].length / columns)), 0);
}

function main() {
  const args = process.argv.slice(2);
  const out = process.stdout;
  let shown = bannerRows(process.env, args, out.columns || 80);
  const erasable = out.isTTY && process.env.TERM !== 'dumb';
  if (!isBuildCurrent(root)) {
    process.stderr.write('Building ochat (its sources changed since dist/ was built)…\n');
    shown += 1;
    const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { encoding: 'utf8' });
    const said = `${build.stdout ?? ''}${build.stderr ?? ''}`;
    if (said) process.stderr.write(said);
    if (build.status !== 0) process.exit(build.status ?? 1);
    // What the build said stays on screen, and the banner with it.
    if (said) shown = 0;
  }
  // Up to the banner's first row, and clear from there down: the chat starts where npm's banner was.
  if (erasable && shown > 0) out.write(`\x1b[${shown}A\r\x1b[J`);
  const child = spawn(process.execPath, [join(root, 'bin/ochat'), ...args], { stdio: 'inherit' });
  // The terminal's Ctrl+C reaches ochat itself (same process group); a kill of npm is passed on.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
