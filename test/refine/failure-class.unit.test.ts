import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FailureClass } from '../../src/events/effect-results.js';
import { failFastMessage } from '../../src/refine/class-guidance.js';
import {
  classifyApplied,
  classifyRun,
  classifyText,
  failsFast,
  unjudgedQuality,
} from '../../src/refine/failure-class.js';
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

/** The baseline failed alike: the class is what the run's words say. */
const alike = (run: ReturnType<typeof failing>) => ({ baseline: run, changedPaths: [] });

describe('failure classes', () => {
  it('has a real sample of every class a test run can show', () => {
    expect(new Set(samples.map(([, cls]) => cls))).toEqual(
      new Set(
        FailureClass.options.filter(
          (c) => c !== 'timeout' && c !== 'invalid-model-output' && c !== 'unknown' && c !== 'unreadable',
        ),
      ),
    );
  });

  it.each(samples)('%s is read as %s', (_file, cls, text) => {
    expect(classifyText(text)).toBe(cls);
    const run = failing({ outputTail: text });
    expect(classifyRun(run, alike(run))).toBe(cls);
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
    [
      "a refused connection to the change's server on every address is the change's",
      failing({ outputTail: 'Error: connect ECONNREFUSED 0.0.0.0:3000' }),
      'unknown',
    ],
    // A test of error handling compares error codes and messages: the words are its values.
    [
      'an assertion comparing network error codes is an assertion',
      failing({
        cases: [
          case_(
            'client > retries',
            "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n+ actual - expected\n\n+ 'ECONNRESET'\n- 'ENOTFOUND'",
          ),
        ],
      }),
      'assertion',
    ],
    [
      "an expectation on a shell's message is an assertion",
      failing({
        cases: [
          case_('cli > reports', "AssertionError: expected 'sh: 1: foo: not found' to equal 'missing: foo'"),
        ],
      }),
      'assertion',
    ],
    [
      'a pytest assertion quoting a read-only file system is an assertion',
      failing({
        cases: [case_('tests/test_io.py::test_ro', "E   assert 'Read-only file system' == 'ok'\nE     - ok")],
      }),
      'assertion',
    ],
    [
      'a cargo assertion quoting a DNS failure is an assertion',
      failing({
        outputTail:
          'thread \'resolve\' panicked at src/lib.rs:9:5:\nassertion `left == right` failed\n  left: "Temporary failure in name resolution"\n right: "ok"',
      }),
      'assertion',
    ],
  ])('%s, given the baseline failed alike', (_name, run, cls) =>
    expect(classifyRun(run, alike(run))).toBe(cls),
  );

  const NETWORK =
    'npm error code EAI_AGAIN\nnpm error request to https://registry.npmjs.org/vitest failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org';
  const jq = '/bin/sh: 1: jq-nowhere: not found';
  const passedBaseline = { ...testRun(true), outputTail: 'ok 1 - works' };
  it.each([
    [
      'a run that went to the registry, on a baseline that ran: the change is refined',
      failing({ ran: true, exitCode: 1, cases: [], outputTail: NETWORK }),
      passedBaseline,
      [],
      'unknown',
    ],
    [
      'a program missing for a test the change added: refined by the class of its other words',
      failing({
        cases: [case_('test/pretty.test.js > pretty-prints', `Error: Command failed: jq-nowhere\n${jq}`)],
        changedTests: ['test/pretty.test.js > pretty-prints'],
        addedTestsFailing: ['test/pretty.test.js > pretty-prints'],
        outputTail: jq,
      }),
      passedBaseline,
      ['test/pretty.test.js'],
      'unknown',
    ],
    [
      'a test the change modified, failing as it did on the baseline: the change is refined',
      failing({
        cases: [
          case_(
            'test/fetch.test.js > fetches',
            'TypeError: fetch failed\ngetaddrinfo ENOTFOUND api.example.test',
          ),
        ],
        changedTests: ['test/fetch.test.js > fetches'],
        newFailures: [],
      }),
      {
        ...testRun(false, ['test/fetch.test.js > fetches']),
        cases: [
          case_(
            'test/fetch.test.js > fetches',
            'TypeError: fetch failed\ngetaddrinfo ENOTFOUND api.example.test',
          ),
        ],
      },
      ['test/fetch.test.js'],
      'type-or-value',
    ],
    [
      'an untouched test failing with the same words as on the baseline: the environment',
      failing({
        cases: [case_('test/fetch.test.js > fetches', 'getaddrinfo ENOTFOUND api.example.test')],
        changedTests: [],
        newFailures: [],
      }),
      {
        ...testRun(false, ['test/fetch.test.js > fetches']),
        cases: [case_('test/fetch.test.js > fetches', 'getaddrinfo ENOTFOUND api.example.test')],
      },
      ['src/a.js'],
      'environment',
    ],
    [
      'a file the change wrote that did not load, as an old file did on the baseline: the change is refined',
      failing({
        loadErrors: [{ file: 'tests/test_api.py', message: 'socket.gaierror: Name or service not known' }],
      }),
      {
        ...testRun(true),
        loadErrors: [{ file: 'tests/test_api.py', message: 'socket.gaierror: Name or service not known' }],
      },
      ['tests/test_api.py'],
      'unknown',
    ],
    [
      'a command the shell could not start, where the baseline started it: the change is refined',
      failing({ ran: false, exitCode: 127, cases: [], outputTail: '' }),
      passedBaseline,
      [],
      'unknown',
    ],
  ])('%s', (_name, run, baseline, changedPaths, cls) =>
    expect(classifyRun(run, { baseline, changedPaths })).toBe(cls),
  );

  it.each([
    ['something applied', [{ path: 'a' }], [], undefined],
    ['every change on a protected path', [], [rejection('path-protected')], 'policy'],
    ['a test weakened', [], [rejection('path-protected'), rejection('test-skipped')], 'invalid-model-output'],
    ['an empty answer', [], [], 'invalid-model-output'],
  ] as const)('an attempt with %s', (_name, applied, rejected, cls) =>
    expect(classifyApplied(applied, [...rejected])).toBe(cls),
  );

  it('fails fast only on what no attempt can change', () => {
    expect(FailureClass.options.filter(failsFast)).toEqual(['policy', 'environment', 'unreadable']);
  });

  it('reads a run that exited 0 and named no failure as unreadable, whatever it printed', () => {
    const unknownReason = { level: 'unknown' as const, tests: [] };
    const quiet = failing({
      exitCode: 0,
      cases: [],
      outputTail: 'lite.js (5 / 5)\nAssertionError in a log line',
      failingTests: [],
      verdict: 'unknown',
      reasons: [{ ...unknownReason, code: 'no-test-passed', message: 'no test was seen passing' }],
    });
    // No baseline evidence: these classes never need it.
    const none = { baseline: null, changedPaths: [] };
    expect(classifyRun(quiet, none)).toBe('unreadable');
    // Exited 1, or named a failing test, or timed out: the change's doing as before.
    const exitDisagrees = { ...unknownReason, code: 'exit-disagrees' as const, message: 'exited 1' };
    expect(classifyRun({ ...quiet, exitCode: 1, reasons: [...quiet.reasons, exitDisagrees] }, none)).toBe(
      'assertion',
    );
    expect(classifyRun({ ...quiet, failingTests: ['test/a.test.js > adds'] }, none)).toBe('assertion');
    expect(classifyRun({ ...quiet, exitCode: null, timedOut: true }, none)).toBe('timeout');
  });
});

describe('quality commands booty cannot judge', () => {
  const quality = (command: string, verdict: 'pass' | 'fail' | 'unknown', exitCode = 1) => ({
    command,
    verdict,
    exitCode,
    reason: verdict === 'unknown' ? 'timed out, as it did on the base commit' : null,
  });
  const withQuality = (q: ReturnType<typeof quality>[]) => ({ ...testRun(true, []), quality: q }) as never;

  it.each([
    ['every blocking command unknown', [quality('lint', 'pass'), quality('tsc', 'unknown')], ['tsc']],
    ['one unknown beside a new failure', [quality('lint', 'fail'), quality('tsc', 'unknown')], []],
    ['none blocking', [quality('lint', 'pass')], []],
    ['no quality commands', [], []],
  ])('%s', (_name, q, commands) => {
    expect(unjudgedQuality(withQuality(q)).map((r) => r.command)).toEqual(commands);
  });

  it('says what a human must change, naming each command and why, or that its program is missing', () => {
    const run = withQuality([
      quality('npm run typecheck', 'unknown'),
      quality('lint-nowhere', 'unknown', 127),
    ]);
    expect(failFastMessage('environment', { n: 2, rejected: [], test: run })).toBe(
      "The tests pass, but booty cannot judge the quality commands: `npm run typecheck` timed out, as it did on the base commit; `lint-nowhere` could not be started (exit 127: the program is not available where booty runs it). booty stopped after attempt 2: another attempt cannot fix this. Make the command pass on the base branch, have it print its findings as `path:line: message`, install what it needs on booty's host, or take it out of booty.yml's `quality.commands`; then ask booty again: `@booty retry` on its pull request, or label the issue again.",
    );
  });
});

function case_(id: string, message: string) {
  return { id, file: null, name: id, status: 'failed' as const, durationMs: 1, message };
}

function rejection(rule: string) {
  return { path: '.github/workflows/ci.yml', rule, reason: 'no' };
}
