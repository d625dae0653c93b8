import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeTitles, parseMochaJson } from '../../../src/sandbox/reports/mocha-json.js';
import { fixture, LAB, statuses } from './fixture.js';

// mocha 12, `mocha --reporter=json --reporter-option output=<f>`; the test file it ran is kept
// beside it (as .txt) because the suite titles are read from it.
const report = JSON.parse(fixture('mocha/mocha.json.txt'));
const source = fixture('mocha/duration.spec.js.txt');
const readSource = (file: string) => (file === path.join(LAB.mocha, 'test/duration.spec.js') ? source : null);

describe('parseMochaJson', () => {
  it('splits fullTitle back into suites with the titles the test file declares', () => {
    const { cases, loadErrors } = parseMochaJson(report, LAB.mocha, readSource);
    expect(statuses(cases)).toEqual([
      ['test/duration.spec.js > top level passes', 'passed'],
      ['test/duration.spec.js > parseDuration > parses 1h', 'passed'],
      ['test/duration.spec.js > parseDuration > parses 2m', 'failed'],
      ['test/duration.spec.js > parseDuration > parses days', 'skipped'],
      ['test/duration.spec.js > parseDuration > nested suite > parses 1h', 'passed'],
      ['test/duration.spec.js > parseDuration > nested suite > parses 2h', 'failed'],
      ['test/duration.spec.js > parseDuration > nested suite > same title', 'passed'],
      ['test/duration.spec.js > parseDuration > nested suite > same title #2', 'passed'],
      [
        'test/duration.spec.js > parseDuration > with a broken hook > "before all" hook for "never runs"',
        'errored',
      ],
    ]);
    expect(loadErrors).toEqual([]);
    expect(cases[2]).toMatchObject({ file: 'test/duration.spec.js', name: 'parses 2m', durationMs: 1 });
    expect(cases[2]!.message).toBe(
      'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n120 !== 100\n\n    at Context.<anonymous> (test/duration.spec.js:10:12)',
    );
    expect(cases[8]!.message).toBe(
      'Error: hook exploded\n    at Context.<anonymous> (test/duration.spec.js:24:13)',
    );
  });

  it('keeps the suite path whole when the source does not name the suites', () => {
    const { cases } = parseMochaJson(report, LAB.mocha, () => null);
    expect(cases[4]!.id).toBe('test/duration.spec.js > parseDuration nested suite > parses 1h');
  });

  it('reads literal describe, context and suite titles, not built ones', () => {
    const built = ['describe(`e $', '{x}`, f);'].join('');
    const titles = describeTitles(
      `describe('a', () => {}); context("b c", f); describe.skip(\`d\`, f); ${built} suite('it\\'s', f)`,
    );
    expect(titles.sort()).toEqual(['a', 'b c', 'd', "it's"]);
  });
});
