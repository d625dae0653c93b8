import { writeFile } from 'node:fs/promises';
import path from 'node:path';

// node:test's built-in TAP reporter, with one addition: a `location` for every test. Node 20 writes
// the location of failures only (checked on 20.20: `ok` points carry just `duration_ms`), so a
// passing test could not be tied to its file, and its id would change the day it starts failing.
// Node's junit reporter has no file either. The events carry `file`, `line` and `column` for every
// test, so this module runs node's own reporter one event at a time and adds the line to passes.
// It is written into the report directory, which the sandboxed command can read.

export const NODE_REPORTER_FILE = 'booty-node-tap.mjs';

const SOURCE = `// Written by booty: node's TAP reporter, plus the location of passing tests.
import { tap } from 'node:test/reporters';

async function* one(event) {
  yield event;
}

export default async function* bootyTap(source) {
  yield 'TAP version 13\\n';
  for await (const event of source) {
    const { type, data } = event;
    let first = true;
    for await (const chunk of tap(one(event))) {
      if (first) {
        first = false; // every tap() run opens with its own version line
        continue;
      }
      if (type === 'test:pass' && data.file && /^ *---\\n/.test(chunk) && !chunk.includes(' location: ')) {
        const pad = '    '.repeat(data.nesting);
        const where = \`\${data.file}:\${data.line}:\${data.column}\`.replaceAll("'", "''");
        yield chunk.replace('---\\n', \`---\\n\${pad}  location: '\${where}'\\n\`);
      } else {
        yield chunk;
      }
    }
  }
}
`;

/** Writes the reporter module into `dir` and returns its absolute path. */
export async function writeNodeReporter(dir: string): Promise<string> {
  const file = path.join(dir, NODE_REPORTER_FILE);
  await writeFile(file, SOURCE);
  return file;
}
