import { XMLParser } from 'fast-xml-parser';
import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, ReportParseError, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// `dotnet test --logger trx`: Visual Studio's TRX, the one machine-readable report dotnet writes
// with no package added. Each UnitTestResult has the test's name (xUnit: the full method name,
// with a theory's arguments; MSTest and NUnit: the method's) and its outcome; the TestDefinitions
// give its class. Ids are class > name, as for Surefire.

interface Result {
  testId?: string;
  testName?: string;
  outcome?: string;
  duration?: string;
  Output?: { ErrorInfo?: { Message?: unknown; StackTrace?: unknown } };
}
interface Definition {
  id?: string;
  TestMethod?: { className?: string; name?: string };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  removeNSPrefix: true,
  isArray: (name) => name === 'UnitTestResult' || name === 'UnitTest',
});

const OUTCOME: Record<string, TestStatus> = {
  Passed: 'passed',
  Failed: 'failed',
  Error: 'errored',
  Timeout: 'errored',
  Aborted: 'errored',
  NotExecuted: 'skipped',
  Inconclusive: 'skipped',
  NotRunnable: 'skipped',
};

/** `00:00:01.5000000` in milliseconds. */
function durationMs(text: string | undefined): number | null {
  const m = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(text ?? '');
  if (!m) return null;
  const ms = ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000;
  return Math.round(ms * 1000) / 1000;
}

const text = (v: unknown) =>
  typeof v === 'string' ? v : v && typeof v === 'object' && '#text' in v ? String(v['#text']) : '';

export const isTrx = (xml: string) =>
  /^(<\?xml[^>]*\?>\s*)?<TestRun\b/.test(xml.replace(/^\uFEFF/, '').trimStart());

export function parseTrx(xml: string, cwd: string): CaseBatch {
  const doc = parser.parse(xml) as {
    TestRun?: { Results?: { UnitTestResult?: Result[] }; TestDefinitions?: { UnitTest?: Definition[] } };
  };
  if (!doc.TestRun) throw new ReportParseError('not a TRX report: no <TestRun> root');
  const classes = new Map<string, string>();
  for (const d of doc.TestRun.TestDefinitions?.UnitTest ?? []) {
    if (d.id && d.TestMethod?.className) classes.set(d.id, d.TestMethod.className);
  }
  const cases: TestCase[] = (doc.TestRun.Results?.UnitTestResult ?? []).map((r) => {
    const status = OUTCOME[r.outcome ?? ''] ?? 'errored';
    const cls = classes.get(r.testId ?? '') ?? '';
    const full = r.testName ?? '';
    // xUnit names the method in full; the class is said once.
    const name = cls && full.startsWith(`${cls}.`) ? full.slice(cls.length + 1) : full;
    const info = r.Output?.ErrorInfo;
    const message =
      status === 'failed' || status === 'errored'
        ? failureMessage([text(info?.Message), text(info?.StackTrace)].filter(Boolean).join('\n'), cwd)
        : null;
    return {
      id: [cls, name].filter(Boolean).join(' > '),
      file: null,
      name,
      status,
      durationMs: durationMs(r.duration),
      message,
    };
  });
  return { cases: uniqueIds(cases), loadErrors: [] };
}
