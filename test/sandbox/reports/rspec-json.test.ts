import { describe, expect, it } from 'vitest';
import { parseRspecJson } from '../../../src/sandbox/reports/rspec-json.js';
import { fixture, LAB, statuses } from './fixture.js';

// RSpec 3.12's json formatter, as SPEC_OPTS asks for it: spec/calc_spec.rb with a pass, a
// failure, a pending and a skipped example and a nested context; and a run whose other spec file
// failed to load.

describe('parseRspecJson', () => {
  it('names each example by its file and full description; pending and skipped ones are skipped', () => {
    const { cases, loadErrors } = parseRspecJson(JSON.parse(fixture('rspec/run.json.txt')), LAB.rspec);
    expect(statuses(cases)).toEqual([
      ['spec/calc_spec.rb > Calc adds', 'passed'],
      ['spec/calc_spec.rb > Calc fails', 'failed'],
      ['spec/calc_spec.rb > Calc pending one', 'skipped'],
      ['spec/calc_spec.rb > Calc skipped', 'skipped'],
      ['spec/calc_spec.rb > Calc nested inner', 'passed'],
    ]);
    expect(cases[1]).toMatchObject({ file: 'spec/calc_spec.rb', name: 'fails' });
    // The exception and the spec's own frame; none of the gems' frames.
    expect(cases[1]!.message).toBe(
      "RSpec::Expectations::ExpectationNotMetError: expected: 3\n     got: 2\n\n(compared using ==)\n    at spec/calc_spec.rb:3:in `block (2 levels) in <top (required)>'",
    );
    expect(loadErrors).toEqual([]);
  });

  it('reports a spec file that failed to load, by the file RSpec names', () => {
    const { cases, loadErrors } = parseRspecJson(JSON.parse(fixture('rspec/load-error.json.txt')), LAB.rspec);
    expect(cases).toEqual([]);
    expect(loadErrors.map((e) => e.file)).toEqual(['spec2/bad_spec.rb']);
    expect(loadErrors[0]!.message).toContain('cannot load such file -- nope');
  });

  it('refuses JSON that is not RSpec’s', () => {
    expect(() => parseRspecJson({ stats: {} }, '/repo')).toThrow(/not an RSpec JSON report/);
  });
});
