import type { CorpusCase, Framework } from './cases.js';

// The corpus as the README shows it, under "How booty decides a change passes": one row per case,
// one column per framework, each cell the verdict booty reaches and the tests it saw after the
// change (passed/failed/skipped). A test keeps the README and the table in step.

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
  const names = [...new Set(cases.map((c) => c.name))];
  const rows = names.map((name) => {
    const cells = COLUMNS.map(([fw]) => cell(cases.find((c) => c.framework === fw && c.name === name)));
    return `| ${name} | ${cells.join(' | ')} |`;
  });
  return [
    `| case | ${COLUMNS.map(([, label]) => label).join(' | ')} |`,
    `|---|${COLUMNS.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

if (process.argv[1]?.endsWith('readme-table.ts')) {
  const { corpusCases } = await import('./cases.js');
  process.stdout.write(`${corpusTable(corpusCases)}\n`);
}
