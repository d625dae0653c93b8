import picomatch from 'picomatch';
import type { TestCase } from '../../events/effect-results.js';
import { uniqueIds } from './case-list.js';
import { workTreeFiles } from './file-anchors.js';

// ava names no file in its output. With more than one test file it puts the file before the
// title: its path below the files' common folder, without `__tests__`, `.spec`/`.test`, `test-`
// and the extension (`test/util/parse.test.js` › `util › parse › title`); with one file, the title
// alone. This finds the file each title came from, so ava's ids are file > title like the rest.

const EXTENSIONS = /\.(c|m)?(j|t)sx?$/;
/** ava's default test globs (lib/globs.js, ava 6 and 7). */
const DEFAULT_TESTS = picomatch([
  'test.{js,cjs,mjs,ts,cts,mts}',
  '{src,source}/test.{js,cjs,mjs,ts,cts,mts}',
  '**/__tests__/**/*.{js,cjs,mjs,ts,cts,mts}',
  '**/*.spec.{js,cjs,mjs,ts,cts,mts}',
  '**/*.test.{js,cjs,mjs,ts,cts,mts}',
  '**/test-*.{js,cjs,mjs,ts,cts,mts}',
  '**/test/**/*.{js,cjs,mjs,ts,cts,mts}',
  '**/tests/**/*.{js,cjs,mjs,ts,cts,mts}',
]);
const HELPERS = picomatch([
  '**/__tests__/**/__{helper,fixture}?(s)__/**/*',
  '**/test?(s)/**/{helper,fixture}?(s)/**/*',
]);

/** A file's path as ava's prefix spells it, as segments (the common folder not yet removed). */
function avaSegments(file: string): string[] {
  const parts = file.split('/').filter((p) => p !== '__tests__');
  const name = parts
    .pop()!
    .replace(/\.spec\./, '.')
    .replace(/\.test\./, '.')
    .replace(/test-/, '')
    .replace(EXTENSIONS, '');
  return [...parts, name];
}

const endsWith = (whole: string[], tail: string[]) =>
  tail.length <= whole.length && tail.every((t, i) => whole[whole.length - tail.length + i] === t);

/** Cases read from ava (titles split on ` › `, no file) with their file, where it can be told. */
export async function placeAvaCases(cases: TestCase[], cwd: string): Promise<TestCase[]> {
  if (cases.length === 0) return cases;
  const files = await workTreeFiles(cwd, (name) => EXTENSIONS.test(name));
  const known = files.map((f) => ({ file: f, segments: avaSegments(f) }));
  const tests = files.filter((f) => DEFAULT_TESTS(f) && !HELPERS(f));
  const placed = cases.map((c) => {
    const parts = c.id.split(' > ');
    // The longest prefix of the title's parts that ends exactly one file's path.
    for (let k = parts.length - 1; k >= 1; k--) {
      const head = parts.slice(0, k);
      const match = known.filter((f) => endsWith(f.segments, head));
      if (match.length === 1) {
        const file = match[0]!.file;
        return { ...c, id: [file, ...parts.slice(k)].join(' > '), file };
      }
    }
    // One test file ran, so ava gave no prefix: the repository's only test file.
    if (tests.length === 1) return { ...c, id: `${tests[0]} > ${c.id}`, file: tests[0]! };
    return c;
  });
  return uniqueIds(placed);
}
