import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../src/conversation/message.js';
import { runToolLoop } from '../../src/tools/tool-loop.js';

const toolCall = (name: string): ToolCall => ({ function: { name, arguments: {} } });

/** Replies scripted per step; a step past the script answers without tool calls. */
function scripted(replies: string[][]) {
  const asked: number[] = [];
  const executed: string[] = [];
  return {
    asked,
    executed,
    requestReply: async (step: number) => {
      asked.push(step);
      return { toolCalls: (replies[step - 1] ?? []).map(toolCall) };
    },
    execute: async (call: ToolCall) => {
      executed.push(call.function.name);
    },
  };
}

describe('runToolLoop', () => {
  it('stops on a reply without tool calls, running every call in order before asking again', async () => {
    const script = scripted([['a', 'b'], ['c']]);
    const result = await runToolLoop({ ...script, maxSteps: 10 });
    expect(result).toEqual({ stop: 'answered', steps: 3 });
    expect(script.asked).toEqual([1, 2, 3]);
    expect(script.executed).toEqual(['a', 'b', 'c']);
  });

  it('answers in one step when the model calls no tools', async () => {
    const script = scripted([]);
    expect(await runToolLoop({ ...script, maxSteps: 5 })).toEqual({ stop: 'answered', steps: 1 });
    expect(script.executed).toEqual([]);
  });

  it("stops after maxSteps replies, still running the last reply's calls", async () => {
    const script = scripted([['a'], ['b'], ['c'], ['d']]);
    const result = await runToolLoop({ ...script, maxSteps: 3 });
    expect(result).toEqual({ stop: 'max-steps', steps: 3 });
    expect(script.asked).toEqual([1, 2, 3]);
    expect(script.executed).toEqual(['a', 'b', 'c']);
  });

  it('does not ask at all when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const script = scripted([['a']]);
    expect(await runToolLoop({ ...script, maxSteps: 5, signal: controller.signal })).toEqual({
      stop: 'aborted',
      steps: 0,
    });
    expect(script.asked).toEqual([]);
  });

  it('stops between calls when aborted during a tool run', async () => {
    const controller = new AbortController();
    const executed: string[] = [];
    const result = await runToolLoop({
      requestReply: async () => ({ toolCalls: [toolCall('first'), toolCall('second')] }),
      execute: async (call) => {
        executed.push(call.function.name);
        controller.abort();
      },
      maxSteps: 5,
      signal: controller.signal,
    });
    expect(result).toEqual({ stop: 'aborted', steps: 1 });
    expect(executed).toEqual(['first']);
  });

  it('abandons a reply that never comes when aborted during the request', async () => {
    const controller = new AbortController();
    const executed: string[] = [];
    const loop = runToolLoop({
      requestReply: () => {
        // A model still loading: the request neither resolves nor rejects.
        setTimeout(() => controller.abort(), 10);
        return new Promise(() => {});
      },
      execute: async (call) => {
        executed.push(call.function.name);
      },
      maxSteps: 5,
      signal: controller.signal,
    });
    expect(await loop).toEqual({ stop: 'aborted', steps: 1 });
    expect(executed).toEqual([]);
  });

  it('reports an aborted request that rejects as aborted, and other rejections as errors', async () => {
    const controller = new AbortController();
    const aborted = await runToolLoop({
      requestReply: async () => {
        controller.abort();
        throw new Error('AbortError');
      },
      execute: async () => {},
      maxSteps: 5,
      signal: controller.signal,
    });
    expect(aborted).toEqual({ stop: 'aborted', steps: 1 });
    await expect(
      runToolLoop({
        requestReply: async () => {
          throw new Error('server down');
        },
        execute: async () => {},
        maxSteps: 5,
        signal: new AbortController().signal,
      }),
    ).rejects.toThrow('server down');
  });
});
