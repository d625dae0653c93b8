import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
/** What every plan sets, whatever the command: the runners that read their reporter from the environment. */
const baseEnv = () => ({
  PYTEST_ADDOPTS: pytestAddopts(),
  SPEC_OPTS: `--format progress --format json --out '${reportDir}/rspec.json'`,
  RUBYLIB: `${reportDir}/ruby`,
  BOOTY_MINITEST_DIR: `${reportDir}/minitest`,
  PW_TEST_REPORTER: 'junit',
  PLAYWRIGHT_JUNIT_OUTPUT_FILE: `${reportDir}/playwright.xml`,
});
const environmentReports = () => [
  { path: `${reportDir}/pytest.xml`, format: 'junit' },
  { path: `${reportDir}/rspec.json`, format: 'rspec-json' },
  { path: `${reportDir}/minitest`, format: 'junit', directory: true },
  { path: `${reportDir}/playwright.xml`, format: 'junit' },
];

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
    ['make with no Makefile', 'make test', null, () => 'make test'],
    ['a pipeline is left alone', 'vitest run | tee log.txt', null, () => 'vitest run | tee log.txt'],
    [
      'a list: the flags go to the runner’s command in it',
      'tsc && vitest run; echo done',
      'vitest',
      () =>
        `tsc && vitest run --reporter=default --reporter=junit --outputFile.junit='${R()}/vitest.xml'; echo done`,
    ],
    ['uvu: its lines are read', 'uvu -r esm test', 'uvu', () => 'uvu -r esm test'],
    ['ava gets --tap', 'xo && ava --verbose', 'ava', () => 'xo && ava --verbose --tap'],
    ['ava --tap already', 'ava --tap', 'ava', () => 'ava --tap'],
    ['tape prints TAP as it is', "tape 'test/*.js'", 'tape', () => "tape 'test/*.js'"],
    ['node-tap through npx', 'npx tap test/*.js', 'node-tap', () => 'npx tap test/*.js'],
    ['tap report is not a run', 'tap report html', null, () => 'tap report html'],
    [
      'jasmine gets booty’s reporter',
      'jasmine --config=spec/support/jasmine.json',
      'jasmine',
      () => `jasmine --config=spec/support/jasmine.json --reporter='${R()}/booty-jasmine-reporter.cjs'`,
    ],
    [
      'jasmine with its own reporter',
      'jasmine --reporter=./r.js',
      'jasmine',
      () => 'jasmine --reporter=./r.js',
    ],
    [
      'playwright test: through the environment',
      'npx playwright test',
      'playwright',
      () => 'npx playwright test',
    ],
    [
      'bun test',
      'bun test --timeout 500',
      'bun',
      () => `bun test --timeout 500 --reporter=junit --reporter-outfile='${R()}/bun.xml'`,
    ],
    [
      'deno test: --junit-path before the tests’ own arguments',
      'deno test -A tests/ -- --flag',
      'deno',
      () => `deno test --junit-path='${R()}/deno.xml' -A tests/ -- --flag`,
    ],
    [
      'phpunit',
      'vendor/bin/phpunit --testdox',
      'phpunit',
      () => `vendor/bin/phpunit --testdox --log-junit '${R()}/phpunit.xml'`,
    ],
    [
      'php vendor/bin/phpunit',
      'php vendor/bin/phpunit tests',
      'phpunit',
      () => `php vendor/bin/phpunit tests --log-junit '${R()}/phpunit.xml'`,
    ],
    ['rspec through bundle exec', 'bundle exec rspec', 'rspec', () => 'bundle exec rspec'],
    ['rake spec', 'bundle exec rake spec', 'rspec', () => 'bundle exec rake spec'],
    ['rake test', 'rake test', 'minitest', () => 'rake test'],
    [
      'ruby -Itest on a test file',
      'ruby -Itest test/calc_test.rb',
      'minitest',
      () => 'ruby -Itest test/calc_test.rb',
    ],
    ['rails test', 'bin/rails test', 'minitest', () => 'bin/rails test'],
    [
      'ctest',
      'ctest --test-dir build',
      'ctest',
      () => `ctest --test-dir build --output-junit '${R()}/ctest.xml'`,
    ],
    [
      'dotnet test: the TRX logger, a report per project',
      'dotnet test Calc.sln',
      'dotnet',
      () => `dotnet test Calc.sln --logger trx --results-directory '${R()}/dotnet'`,
    ],
    ['dotnet test with its own logger', 'dotnet test -l junit', 'dotnet', () => 'dotnet test -l junit'],
    ['mvn test', './mvnw -B test', 'maven', () => './mvnw -B test'],
    ['gradle check', './gradlew check', 'gradle', () => './gradlew check'],
    ['mvn compile runs no tests', 'mvn compile', null, () => 'mvn compile'],
  ];
  for (const [name, command, runner, expected] of table) {
    it(name, async () => {
      const p = await plan(command);
      expect([p.runner, p.command]).toEqual([runner, expected()]);
      expect(p.env).toEqual({ ...baseEnv(), ...(runner === 'node-tap' ? { TAP: '1' } : {}) });
    });
  }

  it('lists the injected report, then pytest’s, and sets stdout for go', async () => {
    expect((await plan('vitest run')).reports).toEqual([
      { path: `${reportDir}/vitest.xml`, format: 'junit' },
      ...environmentReports(),
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
      ...environmentReports().map((r) => r.path),
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
    [
      'a script of several commands: the runner is named, the command kept',
      { test: 'xo && ava && tsd' },
      'npm test',
      'ava',
      () => 'npm test',
    ],
    [
      'a script that calls a script',
      { test: 'npm run unit', unit: 'uvu tests' },
      'npm test',
      'uvu',
      () => 'npm test',
    ],
    [
      'yarn <script>',
      { unit: 'jest' },
      'yarn unit',
      'jest',
      () => `yarn unit --json --outputFile='${R()}/jest.json' --testLocationInResults`,
    ],
    ['yarn <program>', {}, 'yarn ava', 'ava', () => 'yarn ava'],
    [
      'pnpm <script>',
      { spec: 'jasmine' },
      'pnpm spec',
      'jasmine',
      () => `pnpm spec --reporter='${R()}/booty-jasmine-reporter.cjs'`,
    ],
    [
      'bun run <script>',
      { test: 'bun test' },
      'bun run test',
      'bun',
      () => `bun run test --reporter=junit --reporter-outfile='${R()}/bun.xml'`,
    ],
    ['a script that is not a runner', { test: 'make check' }, 'npm test', null, () => 'npm test'],
    ['go behind a script stays text', { test: 'go test ./...' }, 'npm test', 'go', () => 'npm test'],
    ['a missing script', { build: 'tsc' }, 'npm test', null, () => 'npm test'],
    [
      'npm with more arguments: named, left alone',
      { test: 'jest' },
      'npm test -- --ci',
      'jest',
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
    expect(p.reports.filter((r) => r.format === 'auto')).toEqual([
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

describe('planReporters: Makefiles, composer, deno tasks and the environment', () => {
  const R = () => reportDir;
  const put = (rel: string, content: string) => writeFileSync(path.join(cwd, rel), content);
  afterAll(() => {
    for (const f of ['Makefile', 'composer.json', 'deno.json']) rmSync(path.join(cwd, f), { force: true });
  });

  it('make <target> names the runner its recipe starts, its variables put in, and changes nothing', async () => {
    put(
      'Makefile',
      'PY ?= python3\n\nlint:\n\truff check .\n\ntest: lint\n\t@echo running\n\t$(PY) -m pytest -q\n\tbundle exec rspec\n\nspec:\n\t$(NOPE) run\n\tbundle exec rspec --tag ~slow\n',
    );
    expect([(await plan('make test')).runner, (await plan('make test')).command]).toEqual([
      'pytest',
      'make test',
    ]);
    expect((await plan('make spec')).runner).toBe('rspec');
    expect((await plan('make lint')).runner).toBeNull();
    expect((await plan('make -C sub test')).runner).toBeNull();
  });

  it('make test over CMake’s test target hands ctest its flag through ARGS', async () => {
    put(
      'Makefile',
      'test:\n\t@$(CMAKE_COMMAND) -E cmake_echo_color --cyan "Running tests..."\n\t/usr/bin/ctest --force-new-ctest-process $(ARGS)\n.PHONY : test\n',
    );
    const p = await plan('make test');
    expect([p.runner, p.command]).toEqual([
      'ctest',
      `make test ARGS='--output-junit '\\''${R()}/ctest.xml'\\'''`,
    ]);
    expect(p.reports[0]).toEqual({ path: `${R()}/ctest.xml`, format: 'junit' });
  });

  it('composer test passes flags after --', async () => {
    put(
      'composer.json',
      JSON.stringify({ scripts: { test: 'phpunit --colors=never', lint: ['phpcs', 'phpstan'] } }),
    );
    expect((await plan('composer test')).command).toBe(`composer test -- --log-junit '${R()}/phpunit.xml'`);
    expect((await plan('composer run-script lint')).runner).toBeNull();
  });

  it('deno task <name> reads deno.json’s tasks', async () => {
    put('deno.json', JSON.stringify({ tasks: { test: 'deno test -A' } }));
    const p = await plan('deno task test');
    expect([p.runner, p.command]).toEqual(['deno', `deno task test --junit-path='${R()}/deno.xml'`]);
  });

  it('node-tap prints raw TAP (TAP=1), which booty reads from stdout; tape and ava --tap likewise', async () => {
    const tap = await plan('tap');
    expect([tap.env.TAP, tap.stdout]).toEqual(['1', 'tap']);
    expect((await plan('tape test/*.js')).stdout).toBe('tap');
    expect((await plan('ava')).stdout).toBe('tap');
    expect((await plan('uvu tests')).stdout).toBeNull();
    expect((await plan('uvu -r esm tests')).args).toEqual(['-r', 'esm', 'tests']);
  });

  it('ava in a script with other commands: no --tap, so no TAP is expected', async () => {
    withScripts({ test: 'xo && ava && tsd' });
    const p = await plan('npm test');
    expect([p.runner, p.command, p.stdout]).toEqual(['ava', 'npm test', null]);
  });

  it('Maven and Gradle leave their reports where they always do', async () => {
    expect((await plan('mvn -B verify')).reports[0]).toEqual({
      path: path.join(cwd, '**/target/surefire-reports/TEST-*.xml'),
      format: 'auto',
    });
    expect((await plan('./gradlew test')).reports[0]).toEqual({
      path: path.join(cwd, '**/build/test-results/**/*.xml'),
      format: 'auto',
    });
  });

  it('writes booty’s jasmine reporter and minitest plugin where the run can load them', async () => {
    await plan('jasmine');
    expect(readFileSync(path.join(reportDir, 'booty-jasmine-reporter.cjs'), 'utf8')).toContain(
      `const OUT = ${JSON.stringify(path.join(reportDir, 'jasmine.xml'))};`,
    );
    expect(readFileSync(path.join(reportDir, 'ruby/minitest/booty_plugin.rb'), 'utf8')).toContain(
      'def self.plugin_booty_init',
    );
    expect(existsSync(path.join(reportDir, 'minitest'))).toBe(true);
  });

  it('clears minitest’s reports from an earlier run, and keeps its folder', async () => {
    const p = await plan('rake test');
    writeFileSync(path.join(reportDir, 'minitest', '123.xml'), '<testsuites/>');
    await clearReports(p, cwd);
    expect(readdirSync(path.join(reportDir, 'minitest'))).toEqual([]);
  });
});
