import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readResults, sniffFormat } from '../../../src/sandbox/reports/read-results.js';
import type { ReporterPlan } from '../../../src/sandbox/reports/reporter-plan.js';
import { FIXTURES, fixture, LAB } from './fixture.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'booty-read-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const plan = (over: Partial<ReporterPlan>): ReporterPlan => ({
  runner: null,
  args: [],
  command: 'make test',
  env: {},
  reports: [],
  stdout: null,
  ...over,
});
const put = (rel: string, content: string) => {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
};
const counts = (r: { cases: { status: string }[] }) => r.cases.length;

describe('readResults', () => {
  it("reads go's JSON stdout, and gives its text for people", async () => {
    const cwd = path.join(FIXTURES, 'go/calc');
    const output = fixture('go/test-json.txt').replaceAll(LAB.go, cwd);
    const r = await readResults({ plan: plan({ runner: 'go', stdout: 'go-json' }), output, cwd });
    expect([r.source, counts(r), r.loadErrors.map((e) => e.file)]).toEqual(['go-json', 9, ['broken']]);
    expect(r.text).toContain('--- FAIL: TestSub');
  });

  it('reads the injected report before the text', async () => {
    const xml = put('out/vitest.xml', fixture('vitest/junit.xml'));
    const r = await readResults({
      plan: plan({ runner: 'vitest', reports: [{ path: xml, format: 'junit' }] }),
      output: fixture('vitest/default.txt'),
      cwd: LAB.vitest,
    });
    expect([r.source, counts(r), r.loadErrors.length, r.problems]).toEqual(['junit', 9, 1, undefined]);
  });

  it('recognises configured reports by their content, expanding globs when read', async () => {
    put('reports/a.xml', fixture('pytest/results.xml'));
    put('reports/b.json', fixture('jest/jest.json.txt'));
    put('reports/c.tap', fixture('node-test/booty.tap'));
    put('reports/notes.md', '# not a report');
    const r = await readResults({
      plan: plan({ reports: [{ path: path.join(dir, 'reports/*.{xml,json,tap}'), format: 'auto' }] }),
      output: '',
      cwd: dir,
    });
    expect([r.source, counts(r)]).toEqual(['junit', 12 + 9 + 12]);
    expect(r.cases.map((c) => c.id)).toContain('tests/test_units.py::test_param[2 m]');
    expect(r.problems).toBeUndefined();
  });

  it('notes a report it cannot read and falls back to the text', async () => {
    const broken = put('out/jest.json', '{"testResults": [');
    put('reports/r.bin', 'GIF89a');
    const r = await readResults({
      plan: plan({
        runner: 'jest',
        reports: [
          { path: broken, format: 'jest-json' },
          { path: path.join(dir, 'reports/*'), format: 'auto' },
        ],
      }),
      output: fixture('jest/verbose.txt'),
      cwd: dir,
    });
    expect([r.source, counts(r)]).toEqual(['text', 9]);
    expect(r.problems).toHaveLength(2);
    expect(r.problems![0]).toMatch(/^out\/jest\.json: .*JSON/);
    expect(r.problems![1]).toBe('reports/r.bin: not a report booty can read');
  });

  it('reads libtest lines as the structured source for cargo', async () => {
    const cwd = path.join(FIXTURES, 'cargo/durations');
    const r = await readResults({ plan: plan({ runner: 'cargo' }), output: fixture('cargo/test.txt'), cwd });
    expect([r.source, counts(r)]).toEqual(['libtest', 8]);
  });

  it('reads mocha JSON printed on stdout by a mocha too old to write the file', async () => {
    const output = `\n${fixture('mocha/mocha.json.txt')}\n`;
    const r = await readResults({ plan: plan({ runner: 'mocha' }), output, cwd: LAB.mocha });
    expect([r.source, counts(r)]).toEqual(['mocha-json', 9]);
  });

  it('says none when nothing names a test', async () => {
    const r = await readResults({ plan: plan({}), output: 'make: *** No rule to make target', cwd: dir });
    expect(r).toEqual({ source: 'none', cases: [], loadErrors: [] });
  });

  it('falls back to the text when go printed no events', async () => {
    const r = await readResults({
      plan: plan({ runner: 'go', stdout: 'go-json' }),
      output: 'go: cannot find main module\n',
      cwd: dir,
    });
    expect([r.source, r.problems]).toEqual(['none', ['go test printed no JSON events']]);
  });
});

describe('sniffFormat', () => {
  it.each([
    ['<?xml version="1.0"?><testsuites/>', 'junit'],
    ['{"Time":"2026-01-01T00:00:00Z","Action":"run"}', 'go-json'],
    ['{"testResults":[]}', 'jest-json'],
    ['{"stats":{},"tests":[]}', 'mocha-json'],
    ['TAP version 13\nok 1 - a\n', 'tap'],
    ['ok 1 - a\n1..1\n', 'tap'],
    ['{"other":1}', null],
    ['plain words', null],
  ])('%s → %s', (content, format) => {
    expect(sniffFormat(content)).toBe(format);
  });
});
