import { main } from '../../src/cli/main.js';

// The CLI run in-process, as the tests see it: its exit code and what it wrote to each stream.

export async function cli(args: string[], options: { onOut?: (line: string) => void; self?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    out: (t) => {
      out.push(t);
      options.onOut?.(t);
    },
    err: (t) => err.push(t),
    env: {},
    self: options.self,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
