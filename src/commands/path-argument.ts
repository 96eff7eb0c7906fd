/**
 * A file path as typed after a command: one pair of surrounding quotes is removed, as a file
 * manager's drag and drop or a copied shell argument gives them ('my chat.json', "my chat.json"),
 * and backslash-escaped spaces (my\ chat.json) are spaces.
 */
export function pathArgument(args: string): string {
  const quoted = /^(['"])(.*)\1$/s.exec(args);
  return quoted ? quoted[2] : args.replace(/\\ /g, ' ');
}
