import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases } from './cases.js';
import { CORPUS_DIR } from './materialize.js';
import { corpusTable } from './readme-table.js';

describe('the README', () => {
  it('shows the corpus table the tests assert, case for case', () => {
    const readme = fs.readFileSync(path.join(CORPUS_DIR, '../../README.md'), 'utf8');
    expect(readme).toContain(corpusTable(corpusCases));
  });
});
