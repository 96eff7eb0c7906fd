import { formatBytes } from '../text/format-bytes.js';

/** What a `tools/call` result becomes for the model: one text, and whether the tool said it failed. */
export interface ToolResultText {
  ok: boolean;
  text: string;
  /** How many content blocks of each kind, for the summary line (`1 image`). */
  kinds: Record<string, number>;
}

/** Bytes a base64 text decodes to. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function field(block: Record<string, unknown>, name: string): string {
  const value = block[name];
  return typeof value === 'string' ? value : '';
}

/** One content block as text: text as it is, the rest as a line saying what it is. */
function blockText(block: Record<string, unknown>): string {
  switch (block.type) {
    case 'text':
      return field(block, 'text');
    case 'image':
    case 'audio':
      return `[${block.type}: ${field(block, 'mimeType') || 'unknown type'}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource': {
      const resource = isRecord(block.resource) ? block.resource : {};
      const head = `[resource ${field(resource, 'uri')}${field(resource, 'mimeType') ? ` (${field(resource, 'mimeType')})` : ''}]`;
      if (typeof resource.text === 'string') return `${head}\n${resource.text}`;
      return `${head} ${formatBytes(base64Bytes(resource.blob))} of binary content`;
    }
    case 'resource_link': {
      const name = field(block, 'name');
      const description = field(block, 'description');
      return `[resource link: ${name ? `${name} ` : ''}${field(block, 'uri')}${description ? ` — ${description}` : ''}]`;
    }
    default:
      return `[${String(block.type ?? 'unknown')} content]`;
  }
}

/**
 * A `tools/call` result as text the model and the user can read: text blocks as they are, images,
 * audio and resources as a line naming them (type, size, URI; an embedded text resource with its
 * text), structured content as JSON when the text blocks do not already carry it.
 */
export function toolResultText(result: unknown): ToolResultText {
  const record = isRecord(result) ? result : {};
  const blocks = Array.isArray(record.content) ? record.content.filter(isRecord) : [];
  const kinds: Record<string, number> = {};
  const parts: string[] = [];
  for (const block of blocks) {
    const kind = String(block.type ?? 'unknown');
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    parts.push(blockText(block));
  }
  if (record.structuredContent !== undefined) {
    const json = JSON.stringify(record.structuredContent, null, 2);
    if (!parts.some((part) => part.includes(JSON.stringify(record.structuredContent))))
      parts.push(parts.length ? `structured content:\n${json}` : json);
    kinds.structured = 1;
  }
  return { ok: record.isError !== true, text: parts.join('\n'), kinds };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
