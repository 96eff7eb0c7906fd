/**
 * Translates a glob into a regular expression over `/`-separated relative paths: `*` and `?` stay
 * within one path segment, `**` spans segments (a whole `**` segment also matches none), `[…]` and `{a,b}` work
 * as in shells (braces only with `braces: true`, as .gitignore has none), and `\x` is a literal x.
 */
export function globToRegExp(glob: string, { braces = true }: { braces?: boolean } = {}): RegExp {
  let source = '';
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob.charAt(i);
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        i++;
        if (atSegmentStart && glob[i + 1] === '/') {
          source += '(?:.*/)?';
          i++;
        } else {
          source += '.*';
        }
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      source += `[${body.replace(/\\/g, '\\\\')}]`;
      i = close;
    } else if (char === '{' && braces) {
      braceDepth++;
      source += '(?:';
    } else if (char === '}' && braceDepth > 0) {
      braceDepth--;
      source += ')';
    } else if (char === ',' && braceDepth > 0) {
      source += '|';
    } else if (char === '\\' && i + 1 < glob.length) {
      i++;
      source += escapeRegExp(glob.charAt(i));
    } else {
      source += escapeRegExp(char);
    }
  }
  // An unclosed brace is treated as an error of the glob, not silently as a literal.
  if (braceDepth > 0) throw new Error(`unclosed "{" in glob ${glob}`);
  return new RegExp(`^${source}$`);
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
