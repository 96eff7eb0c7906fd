/** Two Ctrl+C within this many milliseconds quit (one alone cancels, or shows how to quit). */
export const DOUBLE_CTRL_C_MS = 2000;
