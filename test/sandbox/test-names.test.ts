import { describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/events/effect-results.js';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { useScratch } from '../fixtures/workspace-scratch.js';
import { preparedJob } from './prepared-job.js';

// The tests a change added or modified, named by the runner's whole id on a real run: a test of
// the same name in another class or describe block, failing since before the change, is not the
// change's and does not block it.

const signal = new AbortController().signal;

useScratch();

async function change(files: Record<string, string>, edit: Record<string, string>, command: string) {
  const { ws, job, effects, input } = await preparedJob(files, {
    install: null,
    test: { command, report: [] },
  });
  const baseline = await effects.runBaseline(input(job, 'runBaseline'), { signal });
  const changed: JobContext = {
    ...job,
    baseline: { ...baseline, at: 0 },
    changes: mergeChanges(
      [],
      Object.entries(edit).map(([path, content]) => ({ path, content })),
    ),
  };
  await ws.applyChanges(
    {
      key: 'k',
      step: 'applyChanges',
      attempt: 1,
      notBefore: null,
      job: { ...changed, proposal: { changes: changed.changes, explanation: '' } },
    },
    { signal },
  );
  const after: Omit<TestRun, 'at'> = await effects.runTests(input(changed, 'runTests'), { signal });
  return { baseline, after };
}

describe('changed tests on a real run', () => {
  it('given a method added to one pytest class while another class’s method of that name fails, then only the added one is the change’s and the change passes', async () => {
    const cls = (name: string, body: string) =>
      `class ${name}(TestCase):\n    def test_basic(self):\n        self.assertTrue(True)\n\n    def test_no_iterables(self):\n        ${body}\n`;
    const before = [
      'from unittest import TestCase\n',
      'from more import interleave_evenly\n\n',
      cls('InterleaveLongestTests', 'self.assertEqual(1, 2)  # broken before the change'),
      '\nclass InterleaveEvenlyTests(TestCase):\n    def test_equal_lengths(self):\n        self.assertEqual(list(interleave_evenly([[1], [2]])), [1, 2])\n',
    ].join('');
    const after = `${before}\n    def test_no_iterables(self):\n        self.assertEqual(list(interleave_evenly([])), [])\n`;
    const more = 'def interleave_evenly(iterables):\n    return [x for it in iterables for x in it]\n';
    const { baseline, after: run } = await change(
      { 'more.py': more, 'tests/__init__.py': '', 'tests/test_more.py': before },
      { 'tests/test_more.py': after },
      'python3 -m pytest -q -p no:cacheprovider',
    );
    expect(baseline.failingTests).toEqual(['tests/test_more.py::InterleaveLongestTests::test_no_iterables']);
    expect(run).toMatchObject({
      verdict: 'pass',
      changedTests: ['tests/test_more.py::InterleaveEvenlyTests::test_no_iterables'],
      addedTestsFailing: [],
      newFailures: [],
    });
  });

  it('given a test added to one describe block while another block’s test of that title fails, then only the added one is the change’s', async () => {
    const file = (extra: string) =>
      `const assert = require('node:assert');\nconst { describe, it } = require('node:test');\n\ndescribe('parse', () => {\n  it('reads hours', () => assert.equal(1, 1));\n${extra}});\n\ndescribe('format', () => {\n  it('handles zero', () => assert.equal(0, 1));\n});\n`;
    const { after: run } = await change(
      { 'test/duration.test.js': file('') },
      { 'test/duration.test.js': file("  it('handles zero', () => assert.equal(0, 0));\n") },
      'node --test',
    );
    expect(run).toMatchObject({
      verdict: 'pass',
      changedTests: ['test/duration.test.js > parse > handles zero'],
      newFailures: [],
    });
  });
});
