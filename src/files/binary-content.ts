/** How many leading bytes are inspected, as git does. */
const SNIFF_BYTES = 8000;

/** Whether file content looks binary: a NUL byte in its first 8,000 bytes (git's heuristic). */
export function looksBinary(content: Uint8Array): boolean {
  return content.subarray(0, SNIFF_BYTES).includes(0);
}
