/**
 * A Vite plugin for `vitest.trace.config.ts`: every function of `src/` (getters and setters aside)
 * first calls `globalThis.__ochatTrace`, so a run can record which file each call entered and from
 * where (file-walk.ts). Source positions are kept (insertions only), so stack frames stay exact.
 */
import MagicString from 'magic-string';
import ts from 'typescript';

const CALL = 'globalThis.__ochatTrace?.();';

export function traceEntries(srcDir: string) {
  return {
    name: 'ochat-trace-entries',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      if (!id.startsWith(srcDir) || !/\.tsx?$/.test(id)) return null;
      const kind = id.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, kind);
      const out = new MagicString(code);
      const visit = (node: ts.Node): void => {
        const body =
          ts.isFunctionDeclaration(node) ||
          ts.isFunctionExpression(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isConstructorDeclaration(node) ||
          ts.isArrowFunction(node)
            ? node.body
            : undefined;
        if (body && ts.isBlock(body)) out.appendLeft(body.getStart(source) + 1, CALL);
        else if (body) {
          out.appendLeft(body.getStart(source), `(${CALL.slice(0, -1)}, `);
          out.appendRight(body.end, ')');
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      return { code: out.toString(), map: out.generateMap({ hires: true, source: id }) };
    },
  };
}
