/**
 * Whether compaction is due: the next request (`used` tokens) plus the head-room for the reply
 * would not fit the window.
 */
export function isCompactionDue({
  used,
  reserve,
  numCtx,
}: {
  used: number;
  reserve: number;
  numCtx: number;
}): boolean {
  return used + reserve > numCtx;
}
