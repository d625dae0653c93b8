import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avaText } from '../../../src/sandbox/reports/ava-text.js';
import { parseRspecJson } from '../../../src/sandbox/reports/rspec-json.js';
import { commandSegments } from '../../../src/sandbox/reports/shell-words.js';
import { parseTapDialect } from '../../../src/sandbox/reports/tap-dialects.js';
import { parseUvu } from '../../../src/sandbox/reports/uvu.js';

// What a test prints is untrusted and may be one very long line built from the very pieces these
// readers look for. Each reader goes over a line a bounded number of times (no pattern that can
// backtrack over it), so a line of 100,000 such pieces reads in moments, and reads right. A reader
// that backtracked would take hours here, and the test would time out.

/** A line of `n` pieces drawn from `pieces`. */
const longLine = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { minLength: 20_000, maxLength: 40_000 }).map((a) => a.join(''));

const UVU_PIECES = ['• ', '✘ ', '(', '1', ' / ', ')', ' ', '  ', '"', 'FAIL ', 'a.js', '.', 'Total:'];
const AVA_PIECES = ['✔ ', '✘ [fail]: ', ' › ', ' (', '1', 'ms', 's', ')', ' ', '─', '- [skip] '];

describe('the text readers on long adversarial lines', () => {
  it('uvu: a line of marks and counts is no suite line unless it ends like one', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(longLine(UVU_PIECES), (junk) => {
        const run = parseUvu(`lite.js\n${junk}x\n`, '/repo', 'test');
        expect(run.cases).toEqual([
          expect.objectContaining({
            id: 'test/lite.js',
            status: 'passed',
            counts: { passed: 0, failed: 0, skipped: 0 },
          }),
        ]);
      }),
      { numRuns: 15 },
    );
  });

  it('uvu: a failing test’s long name, built of uvu’s own words, is read whole', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(longLine(UVU_PIECES), (name) => {
        const clean = name.replaceAll('\n', ' ').trim() || 'x';
        const out = `lite.js\n• ✘   (1 / 2)\n\n   FAIL  "${clean}"\n    boom\n\n  Total:     2\n`;
        const failed = parseUvu(out, '/repo', 'test').cases.filter((c) => c.scope !== 'file');
        expect(failed.map((c) => c.name)).toEqual([clean]);
      }),
      { numRuns: 15 },
    );
  });

  it('ava: a long title of near-durations loses only its own duration', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(longLine(AVA_PIECES), (junk) => {
        const title = `t${junk.replaceAll('\n', ' ')}z`;
        const cases = avaText(`  ✔ ${title} (1m 12.5s)\n`, '/repo').cases;
        expect(cases).toHaveLength(1);
        expect(cases[0]!.status).toBe('passed');
        expect(cases[0]!.id).toBe(title.split(' › ').join(' > '));
      }),
      { numRuns: 15 },
    );
  });

  it('tape: a long comment and a long assertion name are one test', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(longLine(['# ', 'ok ', '1', ' ', '-', 'not ', '#']), (junk) => {
        const name = junk.replaceAll('\n', ' ').trim() || 'x';
        const tap = `TAP version 13\n# ${name}\nok 1 ${name}\n\n1..1\n`;
        const { cases } = parseTapDialect(tap, '/repo', 'tape');
        expect(cases.map((c) => c.status)).toEqual(['passed']);
      }),
      { numRuns: 10 },
    );
  });

  it('command lists: a long command of operators and quotes splits in one pass', { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(longLine(['&', '|', ';', "'", '"', '\\', 'a', ' ']), (command) => {
        const segments = commandSegments(command);
        for (const s of segments) expect(command.slice(s.start, s.end)).toBe(s.text);
      }),
      { numRuns: 15 },
    );
  });

  it('rspec: a load error message of 100,000 dots still names its file', () => {
    const message = `An error occurred while loading ./spec/a_spec.rb${'.'.repeat(100_000)}`;
    const doc = { examples: [], messages: [message], summary: { errors_outside_of_examples_count: 1 } };
    expect(parseRspecJson(doc, '/repo').loadErrors.map((e) => e.file)).toEqual([
      `spec/a_spec.rb${'.'.repeat(99_999)}`,
    ]);
  });
});
