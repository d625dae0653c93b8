import { describe, expect, it } from 'vitest';
import { sniffFormat } from '../../../src/sandbox/reports/read-results.js';
import { parseTrx } from '../../../src/sandbox/reports/trx.js';
import { fixture, statuses } from './fixture.js';

// dotnet is not on this machine: dotnet/xunit.trx is written by hand to the TRX schema
// (TeamTest/2010), in the shape xUnit's adapter fills it: full method names with a theory's
// arguments, the class in TestDefinitions, a message with CRLF character references.

describe('parseTrx', () => {
  const { cases, loadErrors } = parseTrx(fixture('dotnet/xunit.trx'), '/src');

  it('names each result class > method, the class said once; NotExecuted is skipped', () => {
    expect(statuses(cases)).toEqual([
      ['Calc.Tests.AdderTests > Adds', 'passed'],
      ['Calc.Tests.AdderTests > Sums(a: 1, b: 2, sum: 3)', 'passed'],
      ['Calc.Tests.AdderTests > Sums(a: 2, b: 2, sum: 5)', 'failed'],
      ['Calc.Tests.AdderTests > Overflows', 'skipped'],
    ]);
    expect(loadErrors).toEqual([]);
  });

  it('keeps the failure’s message and stack, and the duration', () => {
    expect(cases[2]!.message).toBe(
      'Assert.Equal() Failure: Values differ\nExpected: 5\nActual:   4\nat Calc.Tests.AdderTests.Sums(Int32 a, Int32 b, Int32 sum) in Calc.Tests/AdderTests.cs:line 21',
    );
    expect(cases[0]!.durationMs).toBe(4.2);
  });

  it('is told from JUnit by its root', () => {
    expect(sniffFormat(fixture('dotnet/xunit.trx'))).toBe('trx');
    expect(sniffFormat('<testsuites></testsuites>')).toBe('junit');
    expect(() => parseTrx('<testsuites/>', '/src')).toThrow(/not a TRX report/);
  });
});
