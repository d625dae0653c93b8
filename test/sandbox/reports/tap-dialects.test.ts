import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeAvaCases } from '../../../src/sandbox/reports/ava-files.js';
import { avaText } from '../../../src/sandbox/reports/ava-text.js';
import { parseTapDialect } from '../../../src/sandbox/reports/tap-dialects.js';
import { fixture, LAB, statuses } from './fixture.js';

// TAP from ava 7 (`ava --tap`), tape 5 and node-tap 21 (`tap`, raw TAP as TAP=1 asks), and ava's
// own text for runs where --tap could not be added. ava's lab: test/a.js (a pass, a failure, a
// skip, a todo) and test/b.js (two passes).

let repo: string;
beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'booty-ava-'));
  for (const file of ['test/a.js', 'test/b.js', 'src/index.js', 'test/helpers/setup.js']) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), '');
  }
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('ava', () => {
  it('reads --tap: each point a test, its file found from the title’s prefix', async () => {
    const batch = parseTapDialect(fixture('ava/two-files.tap'), LAB.ava, 'ava');
    const cases = await placeAvaCases(batch.cases, repo);
    expect(statuses(cases)).toEqual([
      ['test/b.js > b passes', 'passed'],
      ['test/b.js > b # hash title', 'passed'],
      ['test/a.js > skipped one', 'skipped'],
      ['test/a.js > later', 'skipped'],
      ['test/a.js > adds', 'passed'],
      ['test/a.js > fails', 'failed'],
    ]);
    expect(cases.at(-1)).toMatchObject({ file: 'test/a.js', name: 'fails' });
    expect(cases.at(-1)!.message).toContain('Difference (- actual, + expected):');
  });

  it('reads its default text the same way, the failure’s message from its block', async () => {
    const batch = avaText(fixture('ava/two-files.txt'), LAB.ava);
    const cases = await placeAvaCases(batch.cases, repo);
    expect(statuses(cases)).toEqual([
      ['test/b.js > b passes', 'passed'],
      ['test/b.js > b # hash title', 'passed'],
      ['test/a.js > skipped one', 'skipped'],
      ['test/a.js > later', 'skipped'],
      ['test/a.js > adds', 'passed'],
      ['test/a.js > fails', 'failed'],
    ]);
    expect(cases[5]!.message).toContain("3: test('fails', t => { t.is(1 + 1, 3); });");
  });

  it('gives one file’s titles (no prefix) to the only test file there is', async () => {
    const only = mkdtempSync(path.join(tmpdir(), 'booty-ava-one-'));
    writeFileSync(path.join(only, 'test.js'), '');
    writeFileSync(path.join(only, 'index.js'), '');
    const batch = parseTapDialect(fixture('ava/one-file.tap'), only, 'ava');
    expect(statuses(await placeAvaCases(batch.cases, only))).toEqual([
      ['test.js > b passes', 'passed'],
      ['test.js > b # hash title', 'passed'],
    ]);
    rmSync(only, { recursive: true, force: true });
  });

  it('cuts a failing title where its failure block’s title ends, not at the message after it', () => {
    const out = [
      '  ✘ [fail]: parse › hours Values are not the same',
      '  ─',
      '',
      '  parse › hours',
      '',
      '  Difference',
      '  ─',
      '',
    ];
    expect(statuses(avaText(out.join('\n'), '/repo').cases)).toEqual([['parse > hours', 'failed']]);
  });
});

describe('tape', () => {
  const { cases } = parseTapDialect(fixture('tape/run.tap'), LAB.tape, 'tape');

  it('makes each `# title` a test of its assertions; `# SKIP` a skipped one; the summary none', () => {
    expect(statuses(cases)).toEqual([
      ['adds', 'passed'],
      ['fails', 'failed'],
      ['skipped', 'skipped'],
      ['inner', 'passed'],
      ['b passes', 'passed'],
    ]);
  });

  it('gives the failing assertion, what it compared and where', () => {
    expect(cases[1]!.message).toBe(
      'sum\noperator: equal\nexpected: 3\nactual: 2\n    at Test.<anonymous> (test/a.js:3:24)\n    at Test.<anonymous> (test/a.js:3:24)',
    );
  });
});

describe('node-tap', () => {
  const { cases, loadErrors } = parseTapDialect(fixture('node-tap/run.tap'), LAB.nodeTap, 'node-tap');

  it('makes each t.test whose points are assertions a test, under its file; a file of assertions alone is one', () => {
    expect(statuses(cases)).toEqual([
      ['test/a.js > adds', 'passed'],
      ['test/a.js > fails', 'failed'],
      ['test/a.js > skipped', 'skipped'],
      ['test/a.js > outer > inner', 'passed'],
      ['test/b.js', 'passed'],
    ]);
    expect(cases[1]).toMatchObject({ file: 'test/a.js', name: 'fails' });
    expect(loadErrors).toEqual([]);
  });

  it('reports a file that failed with no test in it as a load error', () => {
    const tap =
      'TAP version 14\n# Subtest: test/broken.js\n    1..0\nnot ok 1 - test/broken.js\n  ---\n  exitCode: 1\n  ...\n1..1\n';
    expect(parseTapDialect(tap, '/repo', 'node-tap').loadErrors.map((e) => e.file)).toEqual([
      'test/broken.js',
    ]);
  });
});
