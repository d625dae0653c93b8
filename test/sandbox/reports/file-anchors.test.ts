import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorFiles } from '../../../src/sandbox/reports/file-anchors.js';
import { parseJunit } from '../../../src/sandbox/reports/junit.js';
import { statuses } from './fixture.js';

let repo: string;
beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'booty-anchor-'));
  for (const file of ['tests/all.spec.js', 'tests/query.spec.js', 'a/util.spec.js', 'b/util.spec.js']) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), '');
  }
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('anchorFiles', () => {
  it('puts files named from a test folder (Playwright’s testDir) back under the work tree', async () => {
    const xml = `<testsuites><testsuite name="all.spec.js">
      <testcase name="keeps every value" classname="all.spec.js"/>
      <testcase name="decoding › decodes" classname="query.spec.js"><failure message="x">x</failure></testcase>
      <testcase name="ambiguous" classname="util.spec.js"/>
    </testsuite></testsuites>`;
    const batch = await anchorFiles(parseJunit(xml, repo), repo);
    expect(statuses(batch.cases)).toEqual([
      ['tests/all.spec.js > keeps every value', 'passed'],
      ['tests/query.spec.js > decoding > decodes', 'failed'],
      // Two files end so: left as the runner named it.
      ['util.spec.js > ambiguous', 'passed'],
    ]);
    expect(batch.cases[0]!.file).toBe('tests/all.spec.js');
  });

  it('leaves a batch whose files are all there alone', async () => {
    const batch = { cases: [], loadErrors: [{ file: 'tests/all.spec.js', message: 'x' }] };
    expect(await anchorFiles(batch, repo)).toBe(batch);
  });
});
