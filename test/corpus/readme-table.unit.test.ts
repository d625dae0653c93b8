import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases } from './cases.js';
import { CORPUS_DIR } from './materialize.js';
import { corpusTable, runnerCorpusTable, runnerTable } from './readme-table.js';

describe('the README', () => {
  const readme = fs.readFileSync(path.join(CORPUS_DIR, '../../README.md'), 'utf8');

  it('shows the corpus table the tests assert, case for case', () => {
    expect(readme).toContain(corpusTable(corpusCases));
  });

  it('shows the further runners’ corpus, repository for repository', () => {
    expect(readme).toContain(runnerCorpusTable(corpusCases));
  });

  it('lists every runner booty recognises and how it reads each', () => {
    expect(readme).toContain(runnerTable());
  });
});
