import { XMLParser } from 'fast-xml-parser';
import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, mergeById, ReportParseError, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';
import { collectedFile, pytestNodeId } from './pytest-ids.js';

// JUnit XML, as three writers fill it in:
//   pytest (xunit1)  classname `tests.test_x.TestA`, name `test_b[p]`, file `tests/test_x.py`
//   vitest           classname = the file, name `suite > title`; a file that failed to load is a
//                    case named after the file
//   playwright       classname = the file, name `suite › title`
//   deno             classname = `./file`, a step named `test > step` beside its test
//   ctest            classname = name; `status="disabled"` or `"notrun"` for tests that did not run,
//                    and the test's output in system-out
//   anything else    a `file` attribute when there is one, else classname and name as they are
//                    (bun, PHPUnit, Surefire, minitest and jasmine through booty's reporters)

interface Outcome {
  message?: string;
  '#text'?: string;
}
interface XmlCase {
  name?: string;
  classname?: string;
  file?: string;
  time?: string;
  status?: string;
  'system-out'?: unknown;
  failure?: Outcome[];
  error?: Outcome[];
  skipped?: Outcome[];
}
interface XmlSuite {
  name?: string;
  testsuite?: XmlSuite[];
  testcase?: XmlCase[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  textNodeName: '#text',
  // Numeric character references (bun writes line breaks in attributes as `&#10;`).
  htmlEntities: true,
  isArray: (name, _path, _leaf, isAttribute) =>
    !isAttribute && ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
});

function* casesOf(suite: XmlSuite): Generator<XmlCase> {
  yield* suite.testcase ?? [];
  for (const inner of suite.testsuite ?? []) yield* casesOf(inner);
}

/** What a case printed (ctest keeps a failing test's output there, and nothing in its failure). */
const systemOut = (c: XmlCase): string => {
  const out = c['system-out'];
  if (typeof out === 'string') return out;
  if (out && typeof out === 'object' && '#text' in out) return String((out as Outcome)['#text'] ?? '');
  return '';
};

function outcome(c: XmlCase): { status: TestStatus; detail: Outcome | null } {
  const orOutput = (d: Outcome): Outcome =>
    (d['#text'] ?? '').trim() || (d.message ?? '').trim() ? d : { '#text': systemOut(c) };
  if (c.error?.length) return { status: 'errored', detail: orOutput(c.error[0]!) };
  if (c.failure?.length) return { status: 'failed', detail: orOutput(c.failure[0]!) };
  if (c.skipped?.length || c.status === 'disabled' || c.status === 'notrun')
    return { status: 'skipped', detail: null };
  return { status: 'passed', detail: null };
}

/** Deno lists a test with steps, then each step as `test > step`: the test is their container. */
function withoutContainers(cases: TestCase[]): TestCase[] {
  const ids = new Set(cases.map((c) => c.id));
  const parents = new Set<string>();
  for (const c of cases) {
    const parts = c.id.split(' > ');
    for (let k = 1; k < parts.length; k++) parents.add(parts.slice(0, k).join(' > '));
  }
  const failingUnder = (id: string) =>
    cases.some((c) => c.id.startsWith(`${id} > `) && (c.status === 'failed' || c.status === 'errored'));
  return cases.filter((c) => {
    if (!parents.has(c.id) || !ids.has(c.id)) return true;
    // A test that failed with every step passing failed for a reason of its own: keep it.
    return (c.status === 'failed' || c.status === 'errored') && !failingUnder(c.id);
  });
}

const detailText = (d: Outcome | null) => {
  if (!d) return null;
  const text = (d['#text'] ?? '').trim();
  const message = (d.message ?? '').trim();
  // pytest and vitest repeat the message at the top of the text; keep one copy.
  return text.includes(message) ? text : [message, text].filter(Boolean).join('\n');
};

const seconds = (time: string | undefined) => {
  const s = Number(time);
  return time !== undefined && Number.isFinite(s) && s >= 0 ? Math.round(s * 1000 * 1000) / 1000 : null;
};

const looksLikeFile = (s: string) =>
  /\.[cm]?[jt]sx?$|\.(py|go|rs|rb|java|kt|php|cs|swift)$/.test(s) || s.includes('/');

export function parseJunit(xml: string, cwd: string): CaseBatch {
  const doc = parser.parse(xml) as { testsuites?: XmlSuite | ''; testsuite?: XmlSuite[] };
  const roots: XmlSuite[] = doc.testsuites !== undefined ? [doc.testsuites || {}] : (doc.testsuite ?? []);
  if (doc.testsuites === undefined && doc.testsuite === undefined) {
    throw new ReportParseError('not a JUnit report: no <testsuites> or <testsuite> root');
  }
  const isPytest = roots.some(
    (r) => r.name === 'pytest tests' || r.name === 'pytest' || r.testsuite?.some((s) => s.name === 'pytest'),
  );
  const batch: CaseBatch = { cases: [], loadErrors: [] };
  let pytestCases: TestCase[] = [];
  for (const root of roots) {
    for (const c of casesOf(root)) {
      const { status, detail } = outcome(c);
      const message =
        status === 'failed' || status === 'errored' ? failureMessage(detailText(detail), cwd) : null;
      const durationMs = seconds(c.time);
      const file = c.file ? repoPath(c.file, cwd) : null;
      const classname = c.classname ?? '';
      const name = c.name ?? '';
      if (isPytest) {
        if (!classname && status !== 'passed' && status !== 'skipped') {
          // A module that failed to import: pytest names it `tests.test_bad`, with no class.
          batch.loadErrors.push({
            file: collectedFile({ file, classname, name }),
            message: message ?? status,
          });
          continue;
        }
        const ids = pytestNodeId({ file, classname, name }, cwd);
        // A teardown error after a failure comes as a second case with the same id: one test.
        pytestCases = mergeById(pytestCases, [{ ...ids, status, durationMs, message }]);
        continue;
      }
      const where = file ?? (looksLikeFile(classname) ? repoPath(classname, cwd) : null);
      const classIsFile = where !== null && classname !== '' && repoPath(classname, cwd) === where;
      if (where && (name === classname || name === where) && status !== 'passed' && status !== 'skipped') {
        batch.loadErrors.push({ file: where, message: message ?? status });
        continue;
      }
      // vitest, playwright, deno: classname is the file and the name is the suite path; elsewhere
      // classname groups (ctest repeats the name there).
      const titles = classIsFile ? name.split(/ > | › /) : [name];
      const group = classIsFile || !classname || classname === name ? [] : [classname];
      batch.cases.push({
        id: [where, ...group, ...titles].filter(Boolean).join(' > '),
        file: where,
        name: titles.at(-1) ?? name,
        status,
        durationMs,
        message,
      });
    }
  }
  const isDeno = roots.some((r) => r.name === 'deno test');
  batch.cases = uniqueIds([...pytestCases, ...(isDeno ? withoutContainers(batch.cases) : batch.cases)]);
  return batch;
}
