import type { TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, ReportParseError, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// jest's own `--json` output: one entry per test file (`name`, or `testFilePath` in the internal
// shape), each with its assertions. A file whose suite failed to run has no assertions and a message.

interface JestAssertion {
  ancestorTitles?: string[];
  title?: string;
  status?: string;
  duration?: number | null;
  failureMessages?: string[];
}
interface JestFile {
  name?: string;
  testFilePath?: string;
  status?: string;
  message?: string;
  failureMessage?: string | null;
  testExecError?: { message?: string; stack?: string } | null;
  assertionResults?: JestAssertion[];
  testResults?: JestAssertion[];
}

const STATUS: Record<string, TestStatus> = { passed: 'passed', failed: 'failed' };

export function isJestJson(doc: unknown): boolean {
  return (
    typeof doc === 'object' && doc !== null && Array.isArray((doc as { testResults?: unknown }).testResults)
  );
}

export function parseJestJson(doc: unknown, cwd: string): CaseBatch {
  if (!isJestJson(doc)) throw new ReportParseError('not a jest --json report: no testResults');
  const batch: CaseBatch = { cases: [], loadErrors: [] };
  for (const result of (doc as { testResults: JestFile[] }).testResults) {
    const file = repoPath(result.name ?? result.testFilePath ?? '', cwd) || null;
    const assertions = result.assertionResults ?? result.testResults ?? [];
    const fileMessage = result.message || result.failureMessage || result.testExecError?.stack || '';
    if (assertions.length === 0 && (result.status === 'failed' || fileMessage)) {
      batch.loadErrors.push({
        file: file ?? 'unknown',
        message:
          failureMessage(fileMessage.replace(/^\s*● Test suite failed to run\s*/, ''), cwd) ??
          'failed to run',
      });
      continue;
    }
    for (const a of assertions) {
      const title = a.title ?? '';
      // pending, todo, skipped, disabled: did not run.
      const status = STATUS[a.status ?? ''] ?? 'skipped';
      batch.cases.push({
        id: [file, ...(a.ancestorTitles ?? []), title].filter(Boolean).join(' > '),
        file,
        name: title,
        status,
        durationMs: typeof a.duration === 'number' && a.duration >= 0 ? a.duration : null,
        message: status === 'failed' ? failureMessage((a.failureMessages ?? []).join('\n\n'), cwd) : null,
      });
    }
  }
  batch.cases = uniqueIds(batch.cases);
  return batch;
}
