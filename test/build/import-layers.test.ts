/**
 * The import graph of src/, read from the code (static, dynamic and type imports alike): no module
 * imports itself through others, every module sits in a folder, and each folder imports only from
 * folders below it in `LAYERS`. docs/ARCHITECTURE.md's table of who imports whom is this graph.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const src = join(root, 'src');

/** The folders of src/ (chat/'s rooms as folders of their own), top first: each may import only from those after it. */
const LAYERS = [
  'modes',
  'eval',
  'cli',
  'ui',
  'chat',
  'chat/input',
  'chat/session',
  'chat/turn',
  'chat/tools',
  'chat/model',
  'chat/compaction',
  'chat/request',
  'chat/state',
  'mcp',
  'sessions',
  'attachments',
  'commands',
  'tools',
  'files',
  'openai',
  'ollama',
  'config',
  'compaction',
  'backend',
  'conversation',
  'text',
  'async',
  'platform',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(src, path)] : [];
  });
}

const files = sourceFiles(src);
const known = new Set(files);

/** The modules of src/ that `file` imports (relative specifiers, `.js` standing for `.ts`/`.tsx`). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(src, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((spec) => spec.startsWith('.'))
    .flatMap((spec) => {
      const base = join(dirname(file), spec).replace(/\.js$/, '');
      return [`${base}.ts`, `${base}.tsx`].filter((candidate) => known.has(candidate));
    });
}

const graph = new Map(files.map((file) => [file, importsOf(file)]));
/** A module's folder: its top folder under src/, or for chat/ its room (`chat/turn`), loose chat/ files being `chat`. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return '(src root)';
  return parts[0] === 'chat' && parts.length > 2 ? `chat/${parts[1]}` : parts[0];
}

/** Strongly connected components of more than one module (Tarjan): the import cycles. */
function importCycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

/** Folder → the other folders it imports from, sorted. */
function folderImports(): Map<string, string[]> {
  const table = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      table.set(from, (table.get(from) ?? new Set()).add(to));
    }
  }
  return new Map([...table].map(([from, to]) => [from, [...to].sort()]));
}

describe('the import graph of src/', () => {
  it('has no cycles', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(importCycles()).toEqual([]);
  });

  it('has every module in a folder of LAYERS, and no folder LAYERS does not name', () => {
    expect(files.filter((file) => !file.includes('/'))).toEqual([]);
    expect([...new Set(files.map(folderOf))].sort()).toEqual([...LAYERS].sort());
  });

  it('has each folder import only from folders below it', () => {
    const upward = [...folderImports()].flatMap(([from, targets]) =>
      targets.filter((to) => LAYERS.indexOf(to) <= LAYERS.indexOf(from)).map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('has ui/ import from chat/ only the state room it renders', () => {
    const fromChat = folderImports()
      .get('ui')
      ?.filter((to) => to.startsWith('chat'));
    expect(fromChat).toEqual(['chat/state']);
  });

  it('is the table docs/ARCHITECTURE.md shows', () => {
    const doc = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| ([\w/]+) \| ([\w/, —]+) \|$/gm)].map(([, folder, targets]) => [
      folder,
      targets === '—' ? [] : targets.split(', '),
    ]);
    const imports = folderImports();
    expect(rows).toEqual(LAYERS.map((folder) => [folder, imports.get(folder) ?? []]));
  });
});
