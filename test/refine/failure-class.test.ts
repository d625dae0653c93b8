import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FailureClass } from '../../src/events/effect-results.js';
import { classifyApplied, classifyRun, classifyText, failsFast } from '../../src/refine/failure-class.js';
import { testRun } from '../support/scripted-effects.js';

// Real output: test/fixtures/failure-output/capture.sh ran small failing projects under node --test,
// pytest, go test, cargo test, sh and bwrap once, and kept what they printed. Each file's name says
// the class its output must get: `<runner>-<class>[-<what>].txt`.
const dir = path.join(import.meta.dirname, '../fixtures/failure-output');
const samples = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map((file) => {
    const rest = file.slice(file.indexOf('-') + 1, -'.txt'.length);
    const cls = FailureClass.options
      .filter((c) => rest === c || rest.startsWith(`${c}-`))
      .sort((a, b) => b.length - a.length)[0];
    return [file, cls, readFileSync(path.join(dir, file), 'utf8')] as const;
  });

const failing = (change: Partial<ReturnType<typeof testRun>>) => ({ ...testRun(false, []), ...change });

describe('failure classes', () => {
  it('has a real sample of every class a test run can show', () => {
    expect(new Set(samples.map(([, cls]) => cls))).toEqual(
      new Set(
        FailureClass.options.filter(
          (c) => c !== 'timeout' && c !== 'invalid-model-output' && c !== 'unknown',
        ),
      ),
    );
  });

  it.each(samples)('%s is read as %s', (_file, cls, text) => {
    expect(classifyText(text)).toBe(cls);
    expect(classifyRun(failing({ outputTail: text }))).toBe(cls);
  });

  it.each([
    [
      'a run that timed out, whatever it printed',
      failing({ timedOut: true, outputTail: 'AssertionError' }),
      'timeout',
    ],
    [
      'a file that did not load comes before the failing cases',
      failing({
        loadErrors: [{ file: 'tests/test_a.py', message: "ModuleNotFoundError: No module named 'yaml'" }],
        cases: [case_('tests/test_b.py::test_b', 'assert 1 == 2\nE   assert 1 == 2')],
      }),
      'missing-module',
    ],
    [
      "the change's own broken test comes before an old failure",
      failing({
        cases: [
          case_('old > fails', 'TypeError: x is not a function'),
          case_('new > adds', 'AssertionError: expected 3 to be 4'),
        ],
        newFailures: ['new > adds'],
      }),
      'assertion',
    ],
    [
      'a case message the table does not know, then the output',
      failing({ cases: [case_('a > b', 'boom')], outputTail: 'sh: 1: jq: not found' }),
      'environment',
    ],
    [
      'exit 127 with no words booty knows',
      failing({ ran: false, exitCode: 127, outputTail: '' }),
      'environment',
    ],
    ['nothing booty knows', failing({ outputTail: 'something went wrong' }), 'unknown'],
    [
      "a refused connection to the change's own server is the change's",
      failing({ outputTail: 'Error: connect ECONNREFUSED 127.0.0.1:3000' }),
      'unknown',
    ],
    [
      'a refused connection elsewhere is the environment',
      failing({ outputTail: 'Error: connect ECONNREFUSED 10.0.0.7:5432' }),
      'environment',
    ],
  ])('%s', (_name, run, cls) => expect(classifyRun(run)).toBe(cls));

  it.each([
    ['something applied', [{ path: 'a' }], [], undefined],
    ['every change on a protected path', [], [rejection('path-protected')], 'policy'],
    ['a test weakened', [], [rejection('path-protected'), rejection('test-skipped')], 'invalid-model-output'],
    ['an empty answer', [], [], 'invalid-model-output'],
  ] as const)('an attempt with %s', (_name, applied, rejected, cls) =>
    expect(classifyApplied(applied, [...rejected])).toBe(cls),
  );

  it('fails fast only on what no attempt can change', () => {
    expect(FailureClass.options.filter(failsFast)).toEqual(['policy', 'environment']);
  });
});

function case_(id: string, message: string) {
  return { id, file: null, name: id, status: 'failed' as const, durationMs: 1, message };
}

function rejection(rule: string) {
  return { path: '.github/workflows/ci.yml', rule, reason: 'no' };
}
