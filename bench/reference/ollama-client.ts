// A bare client of the official npm package that only consumes streamed replies: the CPU floor of
// any client built on it. Asks `replies` times (default 1) in one process and prints the CPU time
// of each, in ms, space-separated. Usage: ollama-client <host> <model> [replies].
import { Ollama } from 'ollama';

const [host, model, replies = '1'] = process.argv.slice(2);
const client = new Ollama({ host });
const ask = async () => {
  const stream = await client.chat({ model, messages: [{ role: 'user', content: 'go' }], stream: true });
  for await (const _chunk of stream) {
    // consumed, not rendered
  }
};
const cpuMs: number[] = [];
for (let reply = 0; reply < Number(replies); reply++) {
  const before = process.cpuUsage();
  await ask();
  const used = process.cpuUsage(before);
  cpuMs.push((used.user + used.system) / 1000);
}
process.stdout.write(`${cpuMs.join(' ')}\n`);
