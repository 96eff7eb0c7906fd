// A deliberately faulty MCP server over stdio (newline-delimited JSON-RPC), for the tests of
// ochat's MCP client. The mode is the first argument:
//   hang     never answers initialize
//   exit     writes to stderr and exits at once
//   die      works, until tools/call of `crash`: then it exits mid-call
//   flood    writes megabytes to stderr, and works
//   hostile  a tool whose name and description carry escape sequences, the description 10 kB
//   many     200 tools (`--tools=<n>`: that many)
//   invalid  answers tools/list with tools that break the MCP schema (no inputSchema, a number as name)
//   big      a tool `big` whose result is `--result-mb=<n>` MB of text (default 50), and `echo`
//   spew     writes to stderr without end, as fast as the pipe takes it, and works
//   changing lists one tool, then adds a second and sends notifications/tools/list_changed
//   slow     a tool `wait` whose call is never answered (until cancelled)
// With `--record=<file>` among the arguments, every line it receives is appended to that file; with
// `--start-delay=<ms>`, it answers initialize that much later (a server slow to start).
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'hang';
const recordTo = process.argv.find((arg) => arg.startsWith('--record='))?.slice('--record='.length);
const startDelayMs = Number(process.argv.find((arg) => arg.startsWith('--start-delay='))?.slice(14) ?? 0);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

if (mode === 'exit') {
  process.stderr.write('fatal: cannot open the database\nexiting\n');
  process.exit(3);
}
if (mode === 'flood') {
  const line = `${'x'.repeat(1000)}\n`;
  for (let i = 0; i < 5000; i++) process.stderr.write(`${i} ${line}`);
  process.stderr.write('flood: last line\n');
}

const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
let tools = [{ name: 'echo', description: 'Echoes text back', inputSchema: schema }];
if (mode === 'die')
  tools.push({
    name: 'crash',
    description: 'Exits mid-call',
    inputSchema: { type: 'object', properties: {} },
  });
if (mode === 'slow')
  tools.push({ name: 'wait', description: 'Never answers', inputSchema: { type: 'object', properties: {} } });
if (mode === 'hostile') {
  tools = [
    {
      name: 'evil\u001b[31mname\u0007',
      description: `\u001b]0;pwned\u0007\u001b[2J${'A very long description. '.repeat(420)}`,
      inputSchema: schema,
    },
  ];
}
if (mode === 'spew') {
  // As fast as the pipe takes it, yet answering: a write that fills the pipe waits for room.
  const block = `${'spew '.repeat(200)}\n`.repeat(64);
  const more = () => {
    if (process.stderr.write(block)) setImmediate(more);
    else process.stderr.once('drain', more);
  };
  more();
}
if (mode === 'invalid') {
  tools = [
    { name: 'fine', description: 'A valid tool', inputSchema: schema },
    { name: 42 },
    { description: 'no name' },
  ];
}
if (mode === 'big') {
  tools.push({
    name: 'big',
    description: 'A result far over 10 MB',
    inputSchema: { type: 'object', properties: {} },
  });
}
const toolCount = Number(process.argv.find((arg) => arg.startsWith('--tools='))?.slice(8) ?? 200);
const resultMb = Number(process.argv.find((arg) => arg.startsWith('--result-mb='))?.slice(12) ?? 50);
if (mode === 'many') {
  tools = Array.from({ length: toolCount }, (_, i) => ({
    name: `tool_${String(i).padStart(toolCount > 1000 ? 5 : 3, '0')}`,
    description: `Tool number ${i}: does thing ${i} to a document and reports what changed in it.`,
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Which document' } } },
  }));
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (recordTo) appendFileSync(recordTo, `${line}\n`);
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.method === 'initialize') {
    if (mode === 'hang') return;
    setTimeout(send, startDelayMs, {
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: `fault-${mode}`, version: '1.0.0' },
      },
    });
  } else if (message.method === 'notifications/initialized') {
    if (mode === 'changing') {
      setTimeout(() => {
        tools = [
          ...tools,
          { name: 'added', description: 'Appeared later', inputSchema: { type: 'object', properties: {} } },
        ];
        send({ method: 'notifications/tools/list_changed' });
      }, 200);
    }
  } else if (message.method === 'tools/list') {
    send({ id: message.id, result: { tools } });
  } else if (message.method === 'tools/call') {
    if (message.params.name === 'wait') return;
    if (message.params.name === 'big') {
      const text = 'x'.repeat(1024 * 1024 * resultMb);
      send({ id: message.id, result: { content: [{ type: 'text', text }] } });
      return;
    }
    if (message.params.name === 'crash') {
      process.stderr.write('crash: going down mid-call\n');
      process.exit(1);
    }
    send({
      id: message.id,
      result: { content: [{ type: 'text', text: `echo: ${message.params.arguments?.text}` }] },
    });
  } else if (message.id !== undefined) {
    send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
