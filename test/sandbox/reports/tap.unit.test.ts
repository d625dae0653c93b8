import { describe, expect, it } from 'vitest';
import { parseTap } from '../../../src/sandbox/reports/tap.js';
import { fixture, LAB, statuses } from './fixture.js';

// node 20.20 `node --test test/` over a suite with describe, skip, todo, subtests and a file that
// fails to import: booty.tap from booty's reporter, builtin.tap from node's own `--test-reporter=tap`.

describe('parseTap: node:test through booty’s reporter', () => {
  const { cases, loadErrors } = parseTap(fixture('node-test/booty.tap'), LAB.node);

  it('names leaves file > suite > title; suites and parents of subtests are not cases', () => {
    expect(statuses(cases)).toEqual([
      ['test/duration.test.js > parseDuration > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > parses 2m', 'failed'],
      ['test/duration.test.js > parseDuration > parses days', 'skipped'],
      ['test/duration.test.js > parseDuration > parses weeks', 'skipped'],
      ['test/duration.test.js > parseDuration > nested suite > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > nested suite > parses 2h', 'failed'],
      ['test/duration.test.js > parseDuration > nested suite > same title', 'passed'],
      ['test/duration.test.js > parseDuration > nested suite > same title #2', 'passed'],
      ['test/duration.test.js > top level with subtests > sub passes', 'passed'],
      ['test/duration.test.js > top level with subtests > sub fails', 'failed'],
      ['test/duration.test.js > top level passes', 'passed'],
      ['test/other.test.js > other passes', 'passed'],
    ]);
  });

  it('gives the error and the test’s own frames, relative to the work tree', () => {
    const failed = cases.find((c) => c.id.endsWith('parses 2m'))!;
    expect(failed).toMatchObject({ file: 'test/duration.test.js', name: 'parses 2m' });
    expect(failed.durationMs).toBeGreaterThan(0);
    expect(failed.message).toBe(
      'Expected values to be strictly equal:\n\n120 !== 100\n    at TestContext.<anonymous> (test/duration.test.js:11:12)',
    );
  });

  it('reports the file that failed to import as a load error, with what node printed', () => {
    expect(loadErrors).toHaveLength(1);
    expect(loadErrors[0]!.file).toBe('test/broken.test.js');
    expect(loadErrors[0]!.message).toContain(
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'test/does-not-exist.js' imported from test/broken.test.js",
    );
    expect(loadErrors[0]!.message).not.toContain('at moduleResolve');
  });
});

describe('parseTap: node’s built-in TAP reporter', () => {
  it('has no location for passing tests, which is why booty brings its own reporter', () => {
    const { cases } = parseTap(fixture('node-test/builtin.tap'), LAB.node);
    expect(cases.find((c) => c.name === 'parses 1h')).toMatchObject({
      id: 'parseDuration > parses 1h',
      file: null,
    });
    expect(cases.find((c) => c.name === 'parses 2m')!.id).toBe(
      'test/duration.test.js > parseDuration > parses 2m',
    );
  });
});

describe('parseTap: plain TAP', () => {
  it('reads ok, not ok, SKIP and TODO without node’s YAML', () => {
    const tap = [
      'TAP version 13',
      'ok 1 - adds',
      'not ok 2 - subtracts',
      '  ---',
      '  message: nope',
      '  ...',
      'ok 3 - later # SKIP not now',
      'not ok 4 - someday # TODO',
      'ok 5 - adds',
      '1..5',
    ].join('\n');
    expect(statuses(parseTap(tap, '/repo').cases)).toEqual([
      ['adds', 'passed'],
      ['subtracts', 'failed'],
      ['later', 'skipped'],
      ['someday', 'skipped'],
      ['adds #2', 'passed'],
    ]);
  });
});
