import type { ServerResponse } from 'node:http';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { drainUnlessClosed, isClosed, waitForClose, waitUnlessClosed } from './emulator-http.js';
import type { ChunkMessage, ReplyPlan } from './emulator-reply.js';
import type { ReplyFault } from './emulator-types.js';

/** Lines per write when streaming as fast as possible: few syscalls, yet the event loop breathes. */
const MAX_LINES_PER_WRITE = 1000;

/** The line a malformed-line fault injects: not JSON, so the client skips it with a warning. */
export const MALFORMED_LINE = '{"model": this line is not json';

/** One NDJSON streaming job: the plan, the pace, an optional fault, and how to make the done line. */
export interface StreamJob {
  res: ServerResponse;
  /** The model name as the request said it (Ollama echoes it). */
  model: string;
  plan: ReplyPlan;
  tokensPerSecond: number;
  fault?: ReplyFault;
  /** Builds the final `done:true` object once streaming is over (durations are measured). */
  doneObject: () => Record<string, unknown>;
}

/** The start of every chunk line written at one moment: the model and the timestamp. */
export function chunkPrefix(model: string, at = new Date()): string {
  return `{"model":${JSON.stringify(model)},"created_at":"${at.toISOString()}","message":`;
}

/**
 * Serializes one `done:false` chunk line, in Ollama's key order. Hand-built for plain content
 * pieces because JSON.stringify of whole objects is the bottleneck of 20,000-token benchmarks.
 */
export function chunkLine(prefix: string, message: ChunkMessage): string {
  const body =
    message.thinking === undefined && message.tool_calls === undefined
      ? `{"role":"assistant","content":${JSON.stringify(message.content)}}`
      : JSON.stringify(message);
  return `${prefix}${body},"done":false}\n`;
}

/**
 * Streams a reply as Ollama does: `application/x-ndjson`, one JSON object per line, paced at
 * `tokensPerSecond`, then the done line — or the scripted fault instead. Stops quietly when the
 * client goes away.
 */
export async function streamReply(job: StreamJob): Promise<void> {
  const { res, plan, fault } = job;
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  const total = plan.chunks.length;
  const faultAt = fault && fault.kind !== 'http' ? Math.min(Math.max(0, fault.afterChunks), total) : total;
  if (!(await writeChunks(job, 0, faultAt))) return;

  switch (fault?.kind) {
    case 'error-line':
      res.end(`${JSON.stringify({ error: fault.error })}\n`);
      return;
    case 'no-done':
      res.end();
      return;
    case 'hang':
      // Headers must reach the client, or it cannot abort (its abort only works after them).
      res.flushHeaders();
      await waitForClose(res);
      return;
    case 'endless-line':
      await writeEndlessLine(job, fault.bytes);
      return;
    case 'pause':
      await Promise.race([fault.until, waitForClose(res)]);
      if (!(await writeChunks(job, faultAt, total))) return;
      break;
    case 'malformed-line':
      res.write((fault.lines ?? [MALFORMED_LINE]).map((line) => `${line}\n`).join(''));
      if (!(await writeChunks(job, faultAt, total))) return;
      break;
    default:
      break;
  }
  if (!isClosed(res)) res.end(`${JSON.stringify(job.doneObject())}\n`);
}

/** Writes chunks [from, to) at the job's pace; false if the client went away. */
async function writeChunks(job: StreamJob, from: number, to: number): Promise<boolean> {
  const { res, plan, model, tokensPerSecond: tps } = job;
  const start = performance.now();
  let next = from;
  while (next < to) {
    if (isClosed(res)) return false;
    if (Number.isFinite(tps)) {
      // Chunk k is ready (k+1)/tps seconds after the start: wait for the next one, then send all due.
      const readyAt = start + ((next - from + 1) * 1000) / tps;
      if (!(await waitUnlessClosed(res, readyAt - performance.now()))) return false;
    }
    const due = Number.isFinite(tps) ? from + Math.floor(((performance.now() - start) * tps) / 1000) : to;
    const end = Math.min(to, Math.max(next + 1, due), next + MAX_LINES_PER_WRITE);
    const prefix = chunkPrefix(model);
    let text = '';
    for (let k = next; k < end; k++) text += chunkLine(prefix, plan.chunks[k]);
    const writable = res.write(text);
    next = end;
    if (!writable && !(await drainUnlessClosed(res))) return false;
    if (!Number.isFinite(tps) && next < to) await yieldToEventLoop();
  }
  return !isClosed(res);
}

/** Starts a chunk line and never finishes it: `bytes` of content in 64 KB writes, then the end. */
async function writeEndlessLine(job: StreamJob, bytes: number): Promise<void> {
  const { res } = job;
  res.write(`${chunkPrefix(job.model)}{"role":"assistant","content":"`);
  const piece = 'a'.repeat(64 * 1024);
  for (let sent = 0; sent < bytes && !isClosed(res); sent += piece.length) {
    if (!res.write(piece.slice(0, Math.min(piece.length, bytes - sent))) && !(await drainUnlessClosed(res)))
      return;
  }
  if (!isClosed(res)) res.end();
}
