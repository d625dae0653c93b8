import { Parser, type Result } from 'tap-parser';
import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, repoPath, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// TAP, with node:test's dialect: subtests nest under `# Subtest:` with indented TAP, and each point's
// YAML block gives `type: 'suite'` for describe blocks, `location: '/abs/file.js:L:C'`, the error
// and its stack. Suites are containers, not cases; a test with subtests counts through its leaves,
// unless it failed for a reason of its own.

interface Diag {
  type?: string;
  location?: string;
  failureType?: string;
  error?: unknown;
  stack?: unknown;
}

const OWN_FAILURE = (d: Diag) => d.failureType !== undefined && d.failureType !== 'subtestsFailed';
const ERRORED = new Set(['hookFailed', 'cancelledByParent']);

function statusOf(r: Result, diag: Diag): TestStatus {
  if (r.skip || r.todo) return 'skipped';
  if (r.ok) return 'passed';
  return diag.failureType && ERRORED.has(diag.failureType) ? 'errored' : 'failed';
}

const fileOf = (location: string | undefined, cwd: string) =>
  location ? repoPath(location.replace(/:\d+:\d+$/, ''), cwd) : null;

function messageOf(diag: Diag, cwd: string): string | null {
  const error = typeof diag.error === 'string' ? diag.error : diag.error ? JSON.stringify(diag.error) : '';
  const stack =
    typeof diag.stack === 'string'
      ? diag.stack
          .split('\n')
          .map((line) => `    at ${line.trim()}`)
          .join('\n')
      : '';
  return failureMessage([error, stack].filter(Boolean).join('\n'), cwd);
}

const isAbsoluteFile = (name: string) => /^(?:\/|file:\/\/|[A-Za-z]:\\)/.test(name);
const commentText = (comment: string) =>
  comment
    .replace(/^# ?/, '')
    .replace(/\\([#\\])/g, '$1')
    .trimEnd();

export function parseTap(text: string, cwd: string): CaseBatch {
  const batch: CaseBatch = { cases: [], loadErrors: [] };
  const cases: TestCase[] = [];
  let comments: string[] = [];

  const attach = (parser: Parser, titles: string[]) => {
    let openedChild: string | null = null;
    parser.on('child', (child: Parser) => {
      openedChild = child.name;
      attach(child, [...titles, child.name]);
    });
    if (titles.length === 0) {
      parser.on('comment', (c: string) => {
        if (!/^# Subtest: /.test(c)) comments.push(commentText(c));
      });
    }
    parser.on('assert', (r: Result) => {
      const diag: Diag = r.diag && typeof r.diag === 'object' ? r.diag : {};
      const hadChildren = openedChild === r.name;
      openedChild = null;
      const file = fileOf(diag.location, cwd);
      const status = statusOf(r, diag);
      const output = comments.join('\n').trim();
      if (titles.length === 0) comments = [];

      // node:test reports a test file that crashed as a failed test named by its absolute path.
      if (titles.length === 0 && !r.ok && isAbsoluteFile(r.name)) {
        const message = [output, messageOf(diag, cwd)].filter(Boolean).join('\n');
        batch.loadErrors.push({
          file: repoPath(r.name, cwd),
          message: failureMessage(message, cwd) ?? 'failed',
        });
        return;
      }
      if (diag.type === 'suite' || hadChildren) {
        // A describe block that threw (or whose hook failed) before its tests could run.
        if (!r.ok && OWN_FAILURE(diag) && diag.type === 'suite') {
          batch.loadErrors.push({
            file: file ?? [...titles, r.name].join(' > '),
            message: messageOf(diag, cwd) ?? 'failed',
          });
        }
        if (!(hadChildren && !r.ok && OWN_FAILURE(diag) && diag.type !== 'suite')) return;
      }
      cases.push({
        id: [file, ...titles, r.name].filter(Boolean).join(' > '),
        file,
        name: r.name,
        status,
        durationMs: typeof r.time === 'number' ? r.time : null,
        message: status === 'failed' || status === 'errored' ? messageOf(diag, cwd) : null,
      });
    });
  };

  const root = new Parser();
  attach(root, []);
  root.end(text);
  batch.cases = uniqueIds(cases);
  return batch;
}
