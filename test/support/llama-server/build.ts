/**
 * Builds llama.cpp's `llama-server` from source, once per machine, for the tests that run ochat
 * against a real engine. No model hub and no GitHub are reachable here, only the npm registry: the
 * `node-llama-cpp` package carries the whole llama.cpp source as a git bundle, so we `npm pack` it
 * (never install it: its postinstall would try to download binaries), clone the bundle and build
 * the one target with cmake. Everything lands under `$XDG_CACHE_HOME/ochat/llama-server/<version>/`
 * (default `~/.cache`), the binary last, so its presence means a finished build. A lock file keeps
 * two test processes from building at once; the second waits for the first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LockFile } from '../../../src/platform/lock-file.js';
import { cacheDir } from '../../../src/platform/xdg-paths.js';

/** The pinned npm package whose `llama/gitRelease.bundle` is the llama.cpp source we build. */
export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** A build takes 5–15 minutes on two idle cores; a loaded machine may need longer. */
const BUILD_WAIT_MS = 60 * 60_000;

/** The machine cannot build the server (a tool is missing): the tests that need it skip, saying this. */
export class LlamaServerUnavailable extends Error {}

/** Where the pinned version's source, build and binary live. */
export function llamaServerDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), 'llama-server', NODE_LLAMA_CPP_VERSION);
}

/** The finished binary's path (it exists only once a build has completed). */
export function llamaServerBinary(env: NodeJS.ProcessEnv = process.env): string {
  return join(llamaServerDir(env), 'bin', 'llama-server');
}

/** The source tree's path (the vocab GGUFs are in its `models/`). */
export function llamaSourceDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(llamaServerDir(env), 'src');
}

function answers(command: string): boolean {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Why this machine cannot build it, or undefined when it can. */
export function missingBuildTool(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!answers('cmake')) return 'cmake is not installed';
  const compilers = [env.CXX, 'c++', 'g++', 'clang++'].filter((c): c is string => Boolean(c));
  if (!compilers.some(answers)) return 'no C++ compiler (c++, g++ or clang++) is installed';
  if (!answers('git')) return 'git is not installed';
  if (!answers('tar')) return 'tar is not installed';
  return undefined;
}

/** Runs one build step, its output appended to the build log; nice'd, the machine is shared. */
async function step(dir: string, log: string, command: string, args: string[]): Promise<void> {
  const fd = openSync(log, 'a');
  try {
    const nice = process.platform !== 'win32' && answers('nice');
    const [file, argv] = nice ? ['nice', ['-n', '10', command, ...args]] : [command, args];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(file, argv, { cwd: dir, stdio: ['ignore', fd, fd] });
      child.on('error', reject);
      child.on('close', resolve);
    });
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${code}); see ${log}`);
  } finally {
    closeSync(fd);
  }
}

/** Packs the npm package, extracts the bundle and clones it into `src/` (whole, or not at all). */
async function fetchSource(dir: string, log: string): Promise<void> {
  const source = join(dir, 'src');
  if (existsSync(join(source, 'CMakeLists.txt'))) return;
  const pack = join(dir, 'pack');
  rmSync(pack, { recursive: true, force: true });
  mkdirSync(pack, { recursive: true });
  await step(pack, log, 'npm', ['pack', `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`, '--silent']);
  const tarball = `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}.tgz`;
  await step(pack, log, 'tar', ['xzf', tarball, 'package/llama/gitRelease.bundle']);
  const partial = `${source}.partial`;
  rmSync(partial, { recursive: true, force: true });
  await step(dir, log, 'git', ['clone', '--quiet', join(pack, 'package/llama/gitRelease.bundle'), partial]);
  renameSync(partial, source);
  rmSync(pack, { recursive: true, force: true });
}

/** Configures and builds the one target, then puts the binary in place last. */
async function buildServer(dir: string, log: string): Promise<void> {
  await step(dir, log, 'cmake', [
    '-S',
    'src',
    '-B',
    'build',
    '-DLLAMA_CURL=OFF',
    '-DLLAMA_OPENSSL=OFF',
    '-DGGML_NATIVE=OFF',
    '-DLLAMA_BUILD_TESTS=OFF',
    '-DCMAKE_BUILD_TYPE=Release',
    // One self-contained binary: no shared libraries to find at run time.
    '-DBUILD_SHARED_LIBS=OFF',
  ]);
  await step(dir, log, 'cmake', ['--build', 'build', '--target', 'llama-server', '-j2']);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  const partial = join(dir, 'bin', 'llama-server.partial');
  await step(dir, log, 'cp', [join('build', 'bin', 'llama-server'), partial]);
  renameSync(partial, join(dir, 'bin', 'llama-server'));
}

/**
 * The path of a built `llama-server`, building it first when this machine has none (minutes;
 * `onBuild` is told before it starts). Throws LlamaServerUnavailable when a build tool is missing.
 */
export async function ensureLlamaServer(
  onBuild: (message: string) => void = () => {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const binary = llamaServerBinary(env);
  if (existsSync(binary)) return binary;
  const missing = missingBuildTool(env);
  if (missing) throw new LlamaServerUnavailable(`cannot build llama.cpp's llama-server: ${missing}`);
  const dir = llamaServerDir(env);
  mkdirSync(dir, { recursive: true });
  const lock = new LockFile(join(dir, 'build.lock'));
  for (;;) {
    if (lock.acquire().ok) break;
    onBuild(`waiting for another process that is building llama-server in ${dir}`);
    if (!(await lock.waitWhileHeld(BUILD_WAIT_MS, 1000)))
      throw new Error(`llama-server build in ${dir} timed out`);
    if (existsSync(binary)) return binary;
  }
  try {
    if (existsSync(binary)) return binary;
    const log = join(dir, 'build.log');
    onBuild(
      `building llama.cpp's llama-server from node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (once per machine, 5-15 min; log: ${log})`,
    );
    await fetchSource(dir, log);
    await buildServer(dir, log);
    return binary;
  } finally {
    lock.release();
  }
}
