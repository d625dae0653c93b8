import type { Runner } from '../../src/sandbox/reports/command-shape.js';
import type { CorpusCase, Framework } from './cases.js';

// The corpus as the README shows it, under "How booty decides a change passes": one row per case,
// one column per framework, each cell the verdict booty reaches and the tests it saw after the
// change (passed/failed/skipped); then one row per further runner, with its two repositories.
// And the README's table of runners, one row per runner booty recognises (a Record, so a runner
// added to command-shape.ts without a row does not compile). A test keeps the README in step.

const COLUMNS: [Framework, string][] = [
  ['pytest', 'pytest'],
  ['jest', 'jest'],
  ['vitest', 'vitest'],
  ['mocha', 'mocha'],
  ['node-test', 'node:test'],
  ['cargo', 'cargo test'],
  ['go', 'go test'],
];

function cell(c: CorpusCase | undefined): string {
  if (!c) return '';
  if (c.expect.baseline.broken) return `stops: ${c.expect.baseline.broken}`;
  const a = c.expect.after!;
  return `${a.verdict} ${a.passed}/${a.failed}/${a.skipped}`;
}

export function corpusTable(cases: CorpusCase[]): string {
  const shown = cases.filter((c) => COLUMNS.some(([fw]) => fw === c.framework));
  const names = [...new Set(shown.map((c) => c.name))];
  const rows = names.map((name) => {
    const cells = COLUMNS.map(([fw]) => cell(shown.find((c) => c.framework === fw && c.name === name)));
    return `| ${name} | ${cells.join(' | ')} |`;
  });
  return [
    `| case | ${COLUMNS.map(([, label]) => label).join(' | ')} |`,
    `|---|${COLUMNS.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

/** The runners beyond the columns above: a row each, a column per case, the repository named. */
export function runnerCorpusTable(cases: CorpusCase[]): string {
  const others = cases.filter((c) => !COLUMNS.some(([fw]) => fw === c.framework));
  const names = [...new Set(others.map((c) => c.name))];
  const frameworks = [...new Set(others.map((c) => c.framework))];
  const rows = frameworks.map((fw) => {
    const cells = names.map((name) => {
      const c = others.find((o) => o.framework === fw && o.name === name);
      return c ? `${cell(c)} (\`${c.repo}\`)` : '';
    });
    const label = (RUNNER_ROWS[fw as Runner]?.[0] ?? fw).replace(/ \(any command that starts it\)$/, '');
    return `| ${label} | ${cells.join(' | ')} |`;
  });
  return [`| runner | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`, ...rows].join(
    '\n',
  );
}

/** Each runner booty recognises, as the README names it, and how booty reads its results. */
export const RUNNER_ROWS: Record<Runner, [label: string, how: string]> = {
  pytest: [
    'pytest (any command that starts it)',
    "`--junitxml` through `PYTEST_ADDOPTS`; ids are pytest's node ids, `tests/test_x.py::test_parse[1 h]`",
  ],
  vitest: ['vitest', 'its JUnit reporter, beside the default one'],
  jest: ['jest', '`--json --outputFile`'],
  mocha: ['mocha', 'its JSON reporter'],
  'node-test': ['node:test', "its TAP reporter, with each test's file"],
  go: ['go test', '`-json`'],
  cargo: ['cargo test', "libtest's `test a::b ... ok` lines"],
  uvu: [
    'uvu',
    'its printed lines: a file (`lite.js (5 / 5)`) stands for its tests, and each `FAIL` block names a failing one',
  ],
  ava: [
    'ava',
    "`--tap` (its printed lines where the flag cannot be added); the file from the title's prefix",
  ],
  tape: ['tape', 'the TAP it prints: each `# title` is a test of its assertions'],
  'node-tap': [
    'node-tap (`tap`)',
    'raw TAP (`TAP=1`): each `t.test` is a test of its assertions, under its file',
  ],
  jasmine: ['Jasmine', "booty's `--reporter` module: a line per spec, and JUnit XML with each spec's file"],
  playwright: [
    'Playwright Test (any command that starts it)',
    'its JUnit reporter, added through `PW_TEST_REPORTER`',
  ],
  bun: ['bun test', '`--reporter=junit --reporter-outfile`, beside its own output'],
  deno: ['deno test', '`--junit-path`, beside its own output'],
  phpunit: ['PHPUnit', '`--log-junit`'],
  rspec: [
    'RSpec (any command that starts it)',
    'its JSON formatter through `SPEC_OPTS`, beside the progress one',
  ],
  minitest: [
    'minitest (any command that starts it)',
    "a booty plugin on `RUBYLIB` that writes JUnit XML, beside the repository's reporters (minitest-reporters too)",
  ],
  ctest: ['ctest', "`--output-junit` (through `ARGS` for CMake's `make test`)"],
  maven: ['Maven (Surefire)', 'the JUnit XML it writes under `target/surefire-reports`'],
  gradle: ['Gradle', 'the JUnit XML it writes under `build/test-results`'],
  dotnet: ['dotnet test', '`--logger trx --results-directory`: the TRX report of each test project'],
};

export function runnerTable(): string {
  return [
    '| runner | how booty reads it |',
    '|---|---|',
    ...Object.values(RUNNER_ROWS).map(([label, how]) => `| ${label} | ${how} |`),
    '| anything else | the report `test.report` points at (JUnit XML, TAP, `go test -json`, RSpec JSON, TRX); else the printed text, which rarely proves enough |',
  ].join('\n');
}

if (process.argv[1]?.endsWith('readme-table.ts')) {
  const { corpusCases } = await import('./cases.js');
  process.stdout.write(
    `${runnerTable()}\n\n${corpusTable(corpusCases)}\n\n${runnerCorpusTable(corpusCases)}\n`,
  );
}
