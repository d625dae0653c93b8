import { describe, expect, it } from 'vitest';
import { parseJestJson } from '../../../src/sandbox/reports/jest-json.js';
import { fixture, LAB, statuses } from './fixture.js';

// jest 30, `jest --json --outputFile=<f> --testLocationInResults`. (Stored as .json.txt so the
// formatter leaves jest's bytes alone.)
const report = JSON.parse(fixture('jest/jest.json.txt'));

describe('parseJestJson', () => {
  const { cases, loadErrors } = parseJestJson(report, LAB.jest);

  it('names each assertion file > ancestors > title, todo and skipped as skipped', () => {
    expect(statuses(cases)).toEqual([
      ['test/duration.test.js > parseDuration > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > parses 2m', 'failed'],
      ['test/duration.test.js > parseDuration > parses days', 'skipped'],
      ['test/duration.test.js > parseDuration > parses weeks', 'skipped'],
      ['test/duration.test.js > parseDuration > nested > parses 1h', 'passed'],
      ['test/duration.test.js > parseDuration > nested > parses 2h', 'failed'],
      ['test/duration.test.js > parseDuration > nested > same title', 'passed'],
      ['test/duration.test.js > parseDuration > nested > same title #2', 'passed'],
      ['test/duration.test.js > top level passes', 'passed'],
    ]);
    expect(cases[0]).toMatchObject({
      file: 'test/duration.test.js',
      name: 'parses 1h',
      durationMs: 2,
      message: null,
    });
    expect(cases[2]!.durationMs).toBeNull();
  });

  it("keeps the failure's own frame and drops jest's", () => {
    expect(cases[1]!.message).toBe(
      'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 100\nReceived: 120\n    at Object.toBe (test/duration.test.js:8:25)',
    );
  });

  it('reports a suite that failed to run as a load error of its file', () => {
    expect(loadErrors).toHaveLength(1);
    expect(loadErrors[0]!.file).toBe('test/broken.test.js');
    expect(loadErrors[0]!.message.split('\n')[0]).toBe(
      "Cannot find module './does-not-exist' from 'test/broken.test.js'",
    );
    expect(loadErrors[0]!.message).not.toContain('jest-resolve');
  });

  it('refuses JSON that is not a jest report', () => {
    expect(() => parseJestJson({ stats: {} }, LAB.jest)).toThrow(/not a jest/);
  });
});
