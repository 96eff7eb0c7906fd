/**
 * Raw requests to a real OpenAI-compatible server (the llama.cpp server of these tests and the
 * bench): one chat completion, streamed or not, read as the server sent it, and the server's own
 * tokenizer. No client library: these pin down what the wire carries. They go through ochat's own
 * transport, which sends again on a fresh connection when the server closed a kept-alive one as
 * the request went out (Node's fetch failed with "other side closed" there, 2 runs in 9 under load).
 */
import { httpFetch } from '../../../src/ollama/http-fetch.js';

/** One chat completion as the server answered it. */
export interface CompletionAnswer {
  status: number;
  contentType: string;
  /** The parsed `data:` events of a streamed answer (without the closing `[DONE]`). */
  // biome-ignore lint/suspicious/noExplicitAny: server JSON, checked field by field by the tests.
  events: any[];
  /** Whether the stream ended with `data: [DONE]`. */
  done: boolean;
  /** The body of a non-streamed answer (or an error), parsed. */
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  body: any;
  /** The streamed text of `delta.content`, joined. */
  text: string;
}

/** POSTs `body` to `/v1/chat/completions` and reads the whole answer. */
export async function chatCompletion(url: string, body: Record<string, unknown>): Promise<CompletionAnswer> {
  const response = await httpFetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const raw = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const answer: CompletionAnswer = {
    status: response.status,
    contentType,
    events: [],
    done: false,
    body: undefined,
    text: '',
  };
  if (!contentType.startsWith('text/event-stream')) {
    answer.body = JSON.parse(raw);
    answer.text = answer.body?.choices?.[0]?.message?.content ?? '';
    return answer;
  }
  for (const block of raw.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice(6))
      .join('\n');
    if (!data) continue;
    if (data === '[DONE]') {
      answer.done = true;
      continue;
    }
    const event = JSON.parse(data);
    answer.events.push(event);
    answer.text += event.choices?.[0]?.delta?.content ?? '';
  }
  return answer;
}

/** The number of tokens the server's own template and tokenizer make of `messages`. */
export async function promptTokenCount(url: string, messages: unknown[]): Promise<number> {
  // biome-ignore lint/suspicious/noExplicitAny: server JSON, read for one field.
  const post = async (path: string, body: unknown): Promise<any> => {
    const response = await httpFetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return response.json();
  };
  const { prompt } = await post('/apply-template', { messages });
  const { tokens } = await post('/tokenize', { content: prompt, add_special: true, parse_special: true });
  return tokens.length;
}
