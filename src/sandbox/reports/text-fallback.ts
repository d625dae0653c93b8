import { stripAnsi } from './ansi.js';
import { type CaseBatch, mergeById } from './case-list.js';
import { parseLibtest } from './libtest.js';
import { parseTap } from './tap.js';
import { parseTapDialect } from './tap-dialects.js';
import { goText } from './text-go.js';
import { jestText, mochaText, nodeSpecText, vitestText } from './text-javascript.js';
import { pytestText } from './text-pytest.js';

// The last resort: what the runner printed for people. Every format's reader runs over the whole
// output and their findings are merged, so a repository whose `npm test` runs two tools is still
// covered. Ids follow the same conventions as the structured reports, so a run read from text can
// be compared with one read from a report. Passing tests are only seen where the format lists them.

/** A comment line before the first test point: tape's `# title`. */
function isTapeStyle(text: string): boolean {
  const comment = text.search(/^# \S/m);
  const point = text.search(/^(not )?ok \d/m);
  return comment >= 0 && point > comment;
}

export function parseTextOutput(output: string, cwd: string): CaseBatch {
  const text = stripAnsi(output).replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  const batches: CaseBatch[] = [
    vitestText(lines, cwd),
    jestText(lines, cwd),
    nodeSpecText(lines, cwd),
    mochaText(lines, cwd),
    pytestText(lines, cwd),
    goText(lines, cwd),
    parseLibtest(text, cwd),
  ];
  // TAP only where the output says it is TAP: go's `ok  <pkg>` lines would read as test points.
  // tape's (a test file run by node, say) titles its tests with comments before their points.
  // Indented by spaces within a line: `^\s*` would reread a run of blank lines from each of them.
  if (/^[^\S\n\r\u2028\u2029]*# Subtest: /m.test(text)) batches.push(parseTap(text, cwd));
  else if (/^TAP version \d+$/m.test(text)) {
    batches.push(isTapeStyle(text) ? parseTapDialect(text, cwd, 'tape') : parseTap(text, cwd));
  }
  const loadErrors = new Map<string, CaseBatch['loadErrors'][number]>();
  for (const b of batches)
    for (const e of b.loadErrors) if (!loadErrors.has(e.file)) loadErrors.set(e.file, e);
  return {
    cases: batches.reduce((all, b) => mergeById(all, b.cases), [] as CaseBatch['cases']),
    loadErrors: [...loadErrors.values()],
  };
}
