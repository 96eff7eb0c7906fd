import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * `mkdir -p` with the real reason when it fails: Node's recursive mkdir reports ENOENT for a
 * missing folder on a read-only disk; the first missing folder made alone fails with EROFS.
 */
export function makeDirectory(dir: string, mode = 0o700): void {
  try {
    mkdirSync(dir, { recursive: true, mode });
  } catch (error) {
    let missing = dir;
    while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
    if (missing !== dir || !existsSync(missing)) mkdirSync(missing, { mode });
    throw error;
  }
}
