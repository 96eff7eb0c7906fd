// A bare client of the official npm package that only consumes a streamed reply: the CPU floor of
// any client built on it. Prints its own CPU time in ms. Usage: ollama-client <host> <model>.
import { Ollama } from 'ollama';

const [host, model] = process.argv.slice(2);
const client = new Ollama({ host });
const ask = async () => {
  const stream = await client.chat({ model, messages: [{ role: 'user', content: 'go' }], stream: true });
  for await (const _chunk of stream) {
    // consumed, not rendered
  }
};
const before = process.cpuUsage();
await ask();
const used = process.cpuUsage(before);
process.stdout.write(`${(used.user + used.system) / 1000}\n`);
