import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { totalsOf } from '../../../src/sandbox/reports/case-list.js';
import { readResults } from '../../../src/sandbox/reports/read-results.js';
import { clearReports, planReporters } from '../../../src/sandbox/reports/reporter-plan.js';
import { statuses } from './fixture.js';

// The whole path for the runners that are quick to start here: plan the command, run it as the
// shell would, read what it left behind.

let root: string;
let cwd: string;
let reportDir: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'booty-planned-'));
  cwd = path.join(root, 'repo');
  reportDir = path.join(root, 'reports');
  mkdirSync(cwd);
  mkdirSync(reportDir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (files: Record<string, string>) => {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(cwd, rel)), { recursive: true });
    writeFileSync(path.join(cwd, rel), content);
  }
};

async function runPlanned(command: string) {
  const plan = await planReporters({ command, cwd, reportDir, configured: [] });
  await clearReports(plan, cwd);
  const env = { PATH: process.env.PATH ?? '', HOME: root, ...plan.env };
  const run = spawnSync('bash', ['-c', `${plan.command} 2>&1`], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { plan, exitCode: run.status, results: await readResults({ plan, output: run.stdout, cwd }) };
}

const NODE_TESTS = {
  'test/duration.test.js': `import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
describe('parse', () => {
  it('hours', () => assert.equal(1, 1));
  it('minutes', () => assert.equal(2, 3));
  it.skip('days', () => {});
  describe('nested', () => {
    it('deep', () => {});
  });
});
test('top', () => {});
`,
  'test/other.test.js': `import { test } from 'node:test';\ntest('other', () => {});\n`,
};
const NODE_EXPECTED = [
  ['test/duration.test.js > parse > hours', 'passed'],
  ['test/duration.test.js > parse > minutes', 'failed'],
  ['test/duration.test.js > parse > days', 'skipped'],
  ['test/duration.test.js > parse > nested > deep', 'passed'],
  ['test/duration.test.js > top', 'passed'],
  ['test/other.test.js > other', 'passed'],
];

describe('planned runs', () => {
  it('node --test test/: TAP with every test’s file, and spec still printed', async () => {
    write({ ...NODE_TESTS, 'package.json': '{"type":"module"}' });
    const { exitCode, results } = await runPlanned('node --test test/');
    expect(exitCode).toBe(1);
    expect(results.source).toBe('tap');
    expect(statuses(results.cases)).toEqual(NODE_EXPECTED);
    expect(results.cases[1]!.message).toContain('2 !== 3');
    expect(results.cases[1]!.message).toContain('at TestContext.<anonymous> (test/duration.test.js:5:');
  });

  it('npm test running node --test: the same cases, through NODE_OPTIONS', async () => {
    write({ ...NODE_TESTS, 'package.json': '{"type":"module","scripts":{"test":"node --test test/"}}' });
    const { plan, results } = await runPlanned('npm test');
    expect(plan.command).toBe('npm test');
    expect(results.source).toBe('tap');
    expect(statuses(results.cases)).toEqual(NODE_EXPECTED);
  });

  const hasPytest = spawnSync('python3', ['-m', 'pytest', '--version']).status === 0;
  it.skipIf(!hasPytest)('python3 -m pytest: the junit report from PYTEST_ADDOPTS', async () => {
    write({
      'tests/test_units.py': `import pytest

def test_adds():
    assert 1 + 1 == 2

@pytest.mark.parametrize("text", ["1 h", "2 m"])
def test_param(text):
    assert text == "1 h"

class TestGroup:
    @pytest.mark.skip(reason="later")
    def test_skipped(self):
        pass
`,
    });
    const { exitCode, results } = await runPlanned('python3 -m pytest -q -p no:cacheprovider');
    expect(exitCode).toBe(1);
    expect(existsSync(path.join(reportDir, 'pytest.xml'))).toBe(true);
    expect(results.source).toBe('junit');
    expect(statuses(results.cases)).toEqual([
      ['tests/test_units.py::test_adds', 'passed'],
      ['tests/test_units.py::test_param[1 h]', 'passed'],
      ['tests/test_units.py::test_param[2 m]', 'failed'],
      ['tests/test_units.py::TestGroup::test_skipped', 'skipped'],
    ]);
    expect(totalsOf(results.cases)).toEqual({ total: 4, passed: 2, failed: 1, errored: 0, skipped: 1 });
  });

  it.skipIf(!hasPytest)(
    'pytest started by another program still leaves its report (its rootdir-relative files put back under the work tree)',
    async () => {
      write({
        'tests/test_a.py': 'def test_a():\n    assert True\n',
        'run.sh': 'cd tests && python3 -m pytest -q -p no:cacheprovider\n',
      });
      const { results } = await runPlanned('sh run.sh');
      expect(results.source).toBe('junit');
      expect(statuses(results.cases)).toEqual([['tests/test_a.py::test_a', 'passed']]);
    },
  );
});
