import picomatch from 'picomatch';

// What counts as a test file, how many test cases it holds and how many skips, per language.
// Regex counts, not parsers: they only need to notice that an existing test file lost cases or
// gained a skip, comparing the same file before and after, so their blind spots cancel out.

const JS = '{js,jsx,ts,tsx,mjs,cjs,mts,cts}';

const isTest = picomatch(
  [
    `**/*.{test,spec}.${JS}`,
    `**/__tests__/**/*.${JS}`,
    `{test,tests}/**/*.${JS}`,
    // ava's and tape's habit: the tests of a small package in one file at its root.
    `{test,tests}.${JS}`,
    '**/test_*.py',
    '**/*_test.py',
    '**/*_test.go',
    'tests/**/*.rs',
  ],
  { dot: true },
);

export const isTestFile = (path: string): boolean => isTest(path);

type Lang = 'js' | 'py' | 'go' | 'rs' | null;

function language(path: string): Lang {
  if (/\.[cm]?[jt]sx?$/.test(path)) return 'js';
  if (path.endsWith('.py')) return 'py';
  if (path.endsWith('.go')) return 'go';
  if (path.endsWith('.rs')) return 'rs';
  return null;
}

const CASES: Record<Exclude<Lang, null>, RegExp> = {
  js: /(?<![.\w$])(?:it|test|xit|xtest|fit)\b(?:\.\w+)*\s*(?:\(|`)/g,
  // Indented within its line: `^\s*` would reread a run of blank lines from each of them.
  py: /^[^\S\n\r\u2028\u2029]*(?:async\s+)?def\s+test\w*\s*\(/gm,
  go: /^func\s+(?:Test|Fuzz|Example)\w*\s*\(/gm,
  rs: /#\[(?:\w+::)?test\b/g,
};

const SKIPS: Record<Exclude<Lang, null>, RegExp> = {
  js: /\b(?:it|test|describe|suite|context)\.(?:skip|only|todo|skipIf|runIf)\b|\bx(?:it|test|describe)\s*\(|\bf(?:it|describe)\s*\(|\bskip\s*:\s*(?:true|['"`])|\btodo\s*:\s*(?:true|['"`])|\b(?:t|this|ctx|context)\.skip\s*\(/g,
  py: /@pytest\.mark\.(?:skip|skipif|xfail)\b|@unittest\.(?:skip|skipIf|skipUnless|expectedFailure)\b|\bpytest\.(?:skip|xfail)\s*\(|\bself\.skipTest\s*\(/g,
  go: /\b[tb]\.Skip(?:f|Now)?\s*\(/g,
  rs: /#\[ignore\b/g,
};

const matches = (re: RegExp | undefined, text: string) => (re ? (text.match(re) ?? []) : []);

export function countTestCases(path: string, content: string): number {
  const lang = language(path);
  return lang ? matches(CASES[lang], content).length : 0;
}

/** The skip markers in a test file, e.g. `it.skip`, `@pytest.mark.skip`, `t.Skip(`. */
export function skipMarkers(path: string, content: string): string[] {
  const lang = language(path);
  return lang ? matches(SKIPS[lang], content).map((m) => m.trim()) : [];
}
