import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearReports, planReporters } from '../../../src/sandbox/reports/reporter-plan.js';

let root: string;
let reportDir: string;
let cwd: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'booty-plan-'));
  reportDir = path.join(root, 'reports');
  cwd = path.join(root, 'repo');
  mkdirSync(reportDir);
  mkdirSync(cwd);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = (command: string, configured: string[] = []) =>
  planReporters({ command, cwd, reportDir, configured });
const withScripts = (scripts: Record<string, string>) =>
  writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'x', scripts }));
const pytestAddopts = () => `--junitxml='${reportDir}/pytest.xml' -o junit_family=xunit1`;

describe('planReporters: commands that start a runner', () => {
  const R = () => reportDir;
  const table: [string, string, string | null, () => string][] = [
    [
      'vitest',
      'vitest run',
      'vitest',
      () => `vitest run --reporter=default --reporter=junit --outputFile.junit='${R()}/vitest.xml'`,
    ],
    [
      'npx vitest keeps an explicit reporter',
      'npx vitest run --reporter=verbose',
      'vitest',
      () => `npx vitest run --reporter=verbose --reporter=junit --outputFile.junit='${R()}/vitest.xml'`,
    ],
    [
      'vitest with its own outputFile',
      'vitest run --outputFile=out.xml',
      'vitest',
      () => 'vitest run --outputFile=out.xml',
    ],
    ['vitest bench runs no tests', 'vitest bench', null, () => 'vitest bench'],
    [
      'jest behind env assignments',
      'CI=1 npx jest --coverage',
      'jest',
      () => `CI=1 npx jest --coverage --json --outputFile='${R()}/jest.json' --testLocationInResults`,
    ],
    ['jest already writing json', 'jest --json', 'jest', () => 'jest --json'],
    [
      'mocha',
      "mocha 'test/**/*.spec.js'",
      'mocha',
      () => `mocha 'test/**/*.spec.js' --reporter=json --reporter-option output='${R()}/mocha.json'`,
    ],
    ['mocha with its own reporter', 'mocha -R dot', 'mocha', () => 'mocha -R dot'],
    [
      'node --test, flags before the files',
      'node --test test/',
      'node-test',
      () =>
        `node --test-reporter='${R()}/booty-node-tap.mjs' --test-reporter-destination='${R()}/node.tap' --test-reporter=spec --test-reporter-destination=stdout --test test/`,
    ],
    [
      'node --import x --test',
      'node --import tsx --test test/a.test.ts',
      'node-test',
      () =>
        `node --test-reporter='${R()}/booty-node-tap.mjs' --test-reporter-destination='${R()}/node.tap' --test-reporter=spec --test-reporter-destination=stdout --import tsx --test test/a.test.ts`,
    ],
    [
      '--test after the script is the script’s',
      'node test/run.js --test',
      null,
      () => 'node test/run.js --test',
    ],
    ['go test', 'go test ./...', 'go', () => 'go test -json ./...'],
    [
      'go test with -args',
      'go test -run TestX ./pkg -args -flag',
      'go',
      () => 'go test -json -run TestX ./pkg -args -flag',
    ],
    ['go test -json already', 'go test -json ./...', 'go', () => 'go test -json ./...'],
    ['cargo test', 'cargo test --workspace', 'cargo', () => 'cargo test --workspace'],
    ['pytest', 'pytest -q', 'pytest', () => 'pytest -q'],
    ['python -m pytest', 'python -m pytest tests', 'pytest', () => 'python -m pytest tests'],
    ['python3 -m pytest', 'python3 -m pytest', 'pytest', () => 'python3 -m pytest'],
    ['make', 'make test', null, () => 'make test'],
    ['a pipeline is left alone', 'vitest run | tee log.txt', null, () => 'vitest run | tee log.txt'],
    ['a sequence is left alone', 'tsc && vitest run', null, () => 'tsc && vitest run'],
  ];
  for (const [name, command, runner, expected] of table) {
    it(name, async () => {
      const p = await plan(command);
      expect([p.runner, p.command]).toEqual([runner, expected()]);
      expect(p.env).toEqual({ PYTEST_ADDOPTS: pytestAddopts() });
    });
  }

  it('lists the injected report, then pytest’s, and sets stdout for go', async () => {
    expect((await plan('vitest run')).reports).toEqual([
      { path: `${reportDir}/vitest.xml`, format: 'junit' },
      { path: `${reportDir}/pytest.xml`, format: 'junit' },
    ]);
    expect((await plan('node --test')).reports[0]).toEqual({ path: `${reportDir}/node.tap`, format: 'tap' });
    expect((await plan('go test ./...')).stdout).toBe('go-json');
    expect((await plan('vitest run')).stdout).toBeNull();
  });

  it('writes the node reporter module into the report directory', async () => {
    await plan('node --test');
    expect(readFileSync(path.join(reportDir, 'booty-node-tap.mjs'), 'utf8')).toContain(
      "from 'node:test/reporters'",
    );
  });

  it('reads the file pytest is told to write on its command line too', async () => {
    const p = await plan('pytest --junitxml=out/results.xml');
    expect(p.reports.map((r) => r.path)).toEqual([
      path.join(cwd, 'out/results.xml'),
      `${reportDir}/pytest.xml`,
    ]);
  });

  it('quotes paths that need it', async () => {
    const dir = path.join(root, "it's here");
    mkdirSync(dir);
    const p = await planReporters({ command: 'jest', cwd, reportDir: dir, configured: [] });
    expect(p.command).toBe(
      `jest --json --outputFile='${root}/it'\\''s here/jest.json' --testLocationInResults`,
    );
  });
});

describe('planReporters: package scripts', () => {
  const R = () => reportDir;
  const table: [string, Record<string, string>, string, string | null, () => string][] = [
    [
      'npm test → vitest',
      { test: 'vitest run' },
      'npm test',
      'vitest',
      () => `npm test -- --reporter=default --reporter=junit --outputFile.junit='${R()}/vitest.xml'`,
    ],
    [
      'npm t → jest',
      { test: 'jest' },
      'npm t',
      'jest',
      () => `npm t -- --json --outputFile='${R()}/jest.json' --testLocationInResults`,
    ],
    [
      'npm run test',
      { test: 'jest' },
      'npm run test',
      'jest',
      () => `npm run test -- --json --outputFile='${R()}/jest.json' --testLocationInResults`,
    ],
    [
      'npm run <script>',
      { unit: 'cross-env NODE_ENV=test mocha' },
      'npm run unit',
      'mocha',
      () => `npm run unit -- --reporter=json --reporter-option output='${R()}/mocha.json'`,
    ],
    [
      'yarn passes arguments as they are',
      { test: 'mocha' },
      'yarn test',
      'mocha',
      () => `yarn test --reporter=json --reporter-option output='${R()}/mocha.json'`,
    ],
    [
      'pnpm test strips --',
      { test: 'jest' },
      'pnpm test',
      'jest',
      () => `pnpm test -- --json --outputFile='${R()}/jest.json' --testLocationInResults`,
    ],
    [
      'pnpm run keeps -- , so none',
      { unit: 'jest' },
      'pnpm run unit',
      'jest',
      () => `pnpm run unit --json --outputFile='${R()}/jest.json' --testLocationInResults`,
    ],
    ['a script of two commands', { test: 'tsc && vitest run' }, 'npm test', null, () => 'npm test'],
    ['a script that is not a runner', { test: 'make check' }, 'npm test', null, () => 'npm test'],
    ['go behind a script stays text', { test: 'go test ./...' }, 'npm test', 'go', () => 'npm test'],
    ['a missing script', { build: 'tsc' }, 'npm test', null, () => 'npm test'],
    [
      'npm with more arguments is left alone',
      { test: 'jest' },
      'npm test -- --ci',
      null,
      () => 'npm test -- --ci',
    ],
  ];
  for (const [name, scripts, command, runner, expected] of table) {
    it(name, async () => {
      withScripts(scripts);
      const p = await plan(command);
      expect([p.runner, p.command]).toEqual([runner, expected()]);
    });
  }

  it('node --test behind a script gets its reporters through NODE_OPTIONS', async () => {
    withScripts({ test: 'node --test test/' });
    const p = await plan('npm test');
    expect(p.command).toBe('npm test');
    expect(p.env.NODE_OPTIONS).toBe(
      `--test-reporter=${reportDir}/booty-node-tap.mjs --test-reporter-destination=${reportDir}/node.tap --test-reporter=spec --test-reporter-destination=stdout`,
    );
    expect(p.reports[0]).toEqual({ path: `${reportDir}/node.tap`, format: 'tap' });
  });

  it('no package.json: the command as written', async () => {
    rmSync(path.join(cwd, 'package.json'), { force: true });
    expect((await plan('npm test')).command).toBe('npm test');
  });
});

describe('configured reports and clearReports', () => {
  it('adds configured globs as auto reports, anchored at the work tree', async () => {
    const p = await plan('make test', ['build/test-results/*.xml', 'report.tap']);
    expect(p.reports.slice(1)).toEqual([
      { path: path.join(cwd, 'build/test-results/*.xml'), format: 'auto' },
      { path: path.join(cwd, 'report.tap'), format: 'auto' },
    ]);
  });

  it('deletes injected reports and configured matches from an earlier run, nothing else', async () => {
    const p = await plan('vitest run', ['build/results/**/*.xml', '../outside.xml']);
    const stale = [
      path.join(reportDir, 'vitest.xml'),
      path.join(reportDir, 'pytest.xml'),
      path.join(cwd, 'build/results/a.xml'),
      path.join(cwd, 'build/results/deep/b.xml'),
    ];
    const kept = [path.join(cwd, 'build/results/notes.txt'), path.join(root, 'outside.xml')];
    for (const file of [...stale, ...kept]) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, 'x');
    }
    await clearReports(p, cwd);
    expect(stale.filter((f) => existsSync(f))).toEqual([]);
    expect(kept.filter((f) => existsSync(f))).toEqual(kept);
  });
});
