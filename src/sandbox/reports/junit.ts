import { XMLParser } from 'fast-xml-parser';
import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, mergeById, ReportParseError, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';
import { collectedFile, pytestNodeId } from './pytest-ids.js';

// JUnit XML, as three writers fill it in:
//   pytest (xunit1)  classname `tests.test_x.TestA`, name `test_b[p]`, file `tests/test_x.py`
//   vitest           classname = the file, name `suite > title`; a file that failed to load is a
//                    case named after the file
//   anything else    a `file` attribute when there is one, else classname and name as they are

interface Outcome {
  message?: string;
  '#text'?: string;
}
interface XmlCase {
  name?: string;
  classname?: string;
  file?: string;
  time?: string;
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
  isArray: (name, _path, _leaf, isAttribute) =>
    !isAttribute && ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name),
});

function* casesOf(suite: XmlSuite): Generator<XmlCase> {
  yield* suite.testcase ?? [];
  for (const inner of suite.testsuite ?? []) yield* casesOf(inner);
}

function outcome(c: XmlCase): { status: TestStatus; detail: Outcome | null } {
  if (c.error?.length) return { status: 'errored', detail: c.error[0]! };
  if (c.failure?.length) return { status: 'failed', detail: c.failure[0]! };
  if (c.skipped?.length) return { status: 'skipped', detail: null };
  return { status: 'passed', detail: null };
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
      if (where && (name === classname || name === where) && status !== 'passed' && status !== 'skipped') {
        batch.loadErrors.push({ file: where, message: message ?? status });
        continue;
      }
      // vitest: classname is the file and the name is the suite path; elsewhere classname groups.
      const titles = where && classname === where ? name.split(' > ') : [name];
      const group = where
        ? classname === where || !classname
          ? []
          : [classname]
        : classname
          ? [classname]
          : [];
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
  batch.cases = uniqueIds([...pytestCases, ...batch.cases]);
  return batch;
}
