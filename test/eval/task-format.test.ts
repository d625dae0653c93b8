import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { builtinTasksFile } from '../../src/eval/builtin-tasks.js';
import { readTaskFile } from '../../src/eval/task-format.js';
import { tempDir } from '../support/job-harness.js';

// The task file: booty's lines and SWE-bench's read into one shape, and a bad line named with its
// number and field.

const write = (lines: unknown[]) => {
  const file = path.join(tempDir('booty-eval-tasks-'), 'tasks.jsonl');
  fs.writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return file;
};

const native = {
  id: 'demo-1',
  repo: 'repo',
  title: 'Fix it',
  hidden_tests: { patch: 'diff --git a/t b/t\n', FAIL_TO_PASS: ['t::a'] },
};

function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (isBootyError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('no error');
}

describe('eval task files', () => {
  it('reads SWE-bench lines as SWE-bench writes them: test lists as JSON text, the repo by owner/name', () => {
    const file = path.resolve('test/eval/fixtures/swe-bench/instances.jsonl');
    const [first] = readTaskFile(file, { repos: '/nowhere' });
    expect(first).toMatchObject({
      id: 'handmade__pycalc-1',
      // No clone under --repos or beside the file: GitHub.
      repo: 'https://github.com/handmade/pycalc.git',
      baseCommit: '0427aa01453d9c1b1e5fa1e757a442e9ce78c985',
      title: 'clamp() ignores its upper bound',
      body: '`clamp(50, 0, 10)` returns 50; it should return 10, the upper bound.',
      hidden: {
        failToPass: ['tests/test_core.py::test_clamp_high'],
        passToPass: [
          'tests/test_core.py::test_clamp_low',
          'tests/test_core.py::test_clamp_inside',
          'tests/test_core.py::test_percent_of',
          'tests/test_core.py::test_parse_seconds_and_minutes',
        ],
      },
      install: undefined,
      test: null,
    });
    expect(first!.hidden.patch).toContain('+def test_clamp_high():');
    expect(first!.goldPatch).toContain('+    if value > high:');
  });

  it('resolves a native line’s paths beside the file, and reads its patch files', () => {
    const task = readTaskFile(path.resolve('test/eval/fixtures/pycalc-tasks.jsonl'))[0]!;
    expect(task.repo).toBe(path.resolve('test/eval/fixtures/swe-bench/pycalc'));
    expect(task.hidden.patch).toContain('+def test_clamp_high():');
    expect(task).toMatchObject({
      install: null,
      test: 'python3 -m pytest -p no:cacheprovider',
      baseCommit: null,
    });
  });

  it.each([
    ['a line that is not JSON', ['{"id":'], 1, 'the line is not JSON'],
    ['a missing title', [{ ...native, title: undefined }], 1, 'title'],
    ['an unknown field', [{ ...native, hiddenTests: {} }], 1, 'hiddenTests'],
    [
      'no FAIL_TO_PASS test',
      [{ ...native, hidden_tests: { patch: 'x', FAIL_TO_PASS: [] } }],
      1,
      'must name at least one test',
    ],
    ['a repeated id, on its second line', [native, '', native], 3, 'repeats the id "demo-1" of line 1'],
    [
      'SWE-bench test lists that are not JSON',
      [
        {
          instance_id: 'x',
          repo: 'a/b',
          base_commit: 'abcdef1',
          problem_statement: 'p',
          test_patch: 'd',
          FAIL_TO_PASS: '[oops',
        },
      ],
      1,
      'FAIL_TO_PASS must be a list of test ids',
    ],
  ])('names %s with its line and field', (_, lines, line, words) => {
    const file = write(lines);
    const err = errorOf(() => readTaskFile(file));
    expect(err.code).toBe('BOOTY_E_EVAL_TASK_INVALID');
    expect(err.message).toContain(`${file} line ${line}:`);
    expect(err.message).toContain(words);
  });

  it('says when the file cannot be read', () => {
    expect(errorOf(() => readTaskFile('/nowhere/tasks.jsonl'))).toMatchObject({
      code: 'BOOTY_E_EVAL_TASKS_UNREADABLE',
    });
  });

  it('holds a built-in set of at least 24 real tasks from at least 8 repositories, in four languages', () => {
    const tasks = readTaskFile(builtinTasksFile);
    expect(tasks.length).toBeGreaterThanOrEqual(24);
    const repos = new Set(tasks.map((t) => t.source!.repo));
    expect(repos.size).toBeGreaterThanOrEqual(8);
    const languages = new Set(
      tasks.map((t) => {
        const files = fs.readdirSync(t.repo);
        if (files.includes('Cargo.toml')) return 'rust';
        if (files.includes('go.mod')) return 'go';
        if (files.includes('package.json')) return 'javascript';
        return 'python';
      }),
    );
    expect(languages).toEqual(new Set(['rust', 'go', 'javascript', 'python']));
    for (const t of tasks) {
      expect(t.goldPatch, t.id).toBeTruthy();
      expect(t.source!.fix, t.id).toMatch(/^[0-9a-f]{40}$/);
      expect(fs.existsSync(path.join(t.repo, '..', '..', 'SOURCE.md')), t.id).toBe(true);
    }
    expect(tasks.some((t) => t.tags.includes('multi-file'))).toBe(true);
    expect(tasks.some((t) => t.tags.includes('wrong-fix-passes-visible'))).toBe(true);
  });
});
