import { describe, expect, it } from 'vitest';
import { type BootyError, isBootyError } from '../../src/errors.js';
import { DEFAULT_PROTECTED_PATHS, detectSetup, resolveConfig } from '../../src/workspace/repo-config.js';

const fromFile = (text: string, rootFiles: string[] = ['package.json']) =>
  resolveConfig({ file: { path: '.github/booty.yml', text }, rootFiles, defaultMaxAttempts: 3 });

const failure = (text: string): BootyError => {
  try {
    fromFile(text);
  } catch (err) {
    if (isBootyError(err, 'BOOTY_E_CONFIG_INVALID')) return err;
    throw err;
  }
  throw new Error('expected the config to be refused');
};

describe('detectSetup', () => {
  const rows: [string[], ReturnType<typeof detectSetup>][] = [
    [['package.json', 'package-lock.json'], { test: 'npm test', install: 'npm ci' }],
    [['package.json'], { test: 'npm test', install: 'npm install' }],
    [
      ['pyproject.toml'],
      {
        test: 'python -m pytest',
        install:
          'python3 -m venv --system-site-packages --without-pip "$HOME/.venv" && { "$HOME/.venv/bin/python" -m pip --version >/dev/null 2>&1 || "$HOME/.venv/bin/python" -m ensurepip --default-pip >/dev/null; } && "$HOME/.venv/bin/python" -m pip install -e "."',
      },
    ],
    [
      ['setup.py', 'requirements.txt', 'requirements-dev.txt'],
      {
        test: 'python -m pytest',
        install:
          'python3 -m venv --system-site-packages --without-pip "$HOME/.venv" && { "$HOME/.venv/bin/python" -m pip --version >/dev/null 2>&1 || "$HOME/.venv/bin/python" -m ensurepip --default-pip >/dev/null; } && "$HOME/.venv/bin/python" -m pip install -e "." -r requirements.txt -r requirements-dev.txt',
      },
    ],
    [
      ['pytest.ini', 'src'],
      {
        test: 'python -m pytest',
        install: 'python3 -m venv --system-site-packages --without-pip "$HOME/.venv"',
      },
    ],
    [['go.mod', 'go.sum'], { test: 'go test ./...', install: 'go mod download' }],
    [['go.mod'], { test: 'go test ./...', install: null }],
    [['Cargo.toml'], { test: 'cargo test', install: 'cargo fetch' }],
    [['README.md', 'Makefile'], null],
  ];
  for (const [files, expected] of rows) {
    it(`detects ${expected?.test ?? 'nothing'} from ${files.join(', ')}`, () => {
      expect(detectSetup(files)).toEqual(expected);
    });
  }

  it('installs a Python project with the extra it declares for its tests', () => {
    const pyproject =
      '[project]\nname = "x"\n\n[project.optional-dependencies]\ndocs = ["mkdocs"]\ntesting = ["pytest"]\n\n[tool.pytest.ini_options]\n';
    expect(detectSetup(['pyproject.toml'], { pyproject })?.install).toBe(
      'python3 -m venv --system-site-packages --without-pip "$HOME/.venv" && { "$HOME/.venv/bin/python" -m pip --version >/dev/null 2>&1 || "$HOME/.venv/bin/python" -m ensurepip --default-pip >/dev/null; } && "$HOME/.venv/bin/python" -m pip install -e ".[testing]"',
    );
  });
});

describe('resolveConfig', () => {
  it('reads every setting from the file', () => {
    const config = fromFile(
      [
        'test:',
        '  command: make check',
        'install:',
        '  command: make deps',
        'timeoutSeconds: 120',
        'maxAttempts: 5',
        'maxFollowUps: 2',
        'maxCiFixes: 0',
        'protectedPaths: ["db/**"]',
        'sandbox: required',
        'stallAfter: 3',
        'escalate: ["@octocat", my-org/maintainers]',
        'approval: plan',
        'quality:',
        '  commands: [npm run lint, npx tsc --noEmit]',
        'baseBranch: release/2.x',
        'gate: exit-code',
      ].join('\n'),
    );
    expect(config).toEqual({
      source: 'file',
      path: '.github/booty.yml',
      test: { command: 'make check', report: [] },
      install: { command: 'make deps' },
      timeoutSeconds: 120,
      maxAttempts: 5,
      maxFollowUps: 2,
      maxCiFixes: 0,
      protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'db/**'],
      sandbox: 'required',
      stallAfter: 3,
      escalate: ['octocat', 'my-org/maintainers'],
      approval: 'plan',
      quality: { commands: ['npm run lint', 'npx tsc --noEmit'] },
      baseBranch: 'release/2.x',
      gate: 'exit-code',
    });
  });

  it('fills what the file leaves out from detection and the job defaults', () => {
    expect(fromFile('timeoutSeconds: 30\n', ['package.json', 'package-lock.json'])).toMatchObject({
      source: 'file',
      test: { command: 'npm test' },
      install: { command: 'npm ci' },
      timeoutSeconds: 30,
      maxAttempts: 3,
      maxFollowUps: 5,
      maxCiFixes: 3,
      // Not set: no request, so the operator's BOOTY_SANDBOX applies as it is.
      sandbox: null,
      stallAfter: 2,
      escalate: [],
      approval: 'none',
      quality: { commands: [] },
      baseBranch: null,
      gate: 'tests',
    });
  });

  it('turns a detected install step off with install: null', () => {
    expect(fromFile('install: null\n', ['package.json']).install).toBeNull();
  });

  it('treats an empty file as all defaults', () => {
    expect(fromFile('', ['pyproject.toml']).test.command).toBe('python -m pytest');
  });

  it('detects without a file', () => {
    expect(resolveConfig({ file: null, rootFiles: ['go.mod'], defaultMaxAttempts: 2 })).toMatchObject({
      source: 'detected',
      path: null,
      test: { command: 'go test ./...' },
      maxAttempts: 2,
    });
  });

  it('fails without a file and without anything to detect', () => {
    expect(() => resolveConfig({ file: null, rootFiles: ['README.md'], defaultMaxAttempts: 3 })).toThrow(
      expect.objectContaining({ code: 'BOOTY_E_NO_TEST_COMMAND' }),
    );
  });

  const malformed: { text: string; field: string; problem: string }[] = [
    { text: 'maxAttempts: 20\n', field: 'maxAttempts', problem: 'must be at most 10 (got 20)' },
    { text: 'maxAttempts: three\n', field: 'maxAttempts', problem: 'must be a number (got "three")' },
    { text: 'maxAttempts: 2.5\n', field: 'maxAttempts', problem: 'must be a whole number (got 2.5)' },
    { text: 'maxFollowUps: 51\n', field: 'maxFollowUps', problem: 'must be at most 50 (got 51)' },
    { text: 'maxCiFixes: -1\n', field: 'maxCiFixes', problem: 'must be at least 0 (got -1)' },
    { text: 'timeoutSeconds: 0\n', field: 'timeoutSeconds', problem: 'must be at least 1 (got 0)' },
    { text: 'stallAfter: 0\n', field: 'stallAfter', problem: 'must be at least 1 (got 0)' },
    {
      text: 'escalate: octocat\n',
      field: 'escalate',
      problem: 'must be a list of users and teams, such as [octocat, my-org/maintainers] (got "octocat")',
    },
    {
      text: 'escalate: ["not a user"]\n',
      field: 'escalate.0',
      problem: 'must be a user (octocat) or a team (org/team) (got "not a user")',
    },
    { text: 'approval: always\n', field: 'approval', problem: 'must be one of plan, none (got "always")' },
    { text: 'gate: exit\n', field: 'gate', problem: 'must be one of tests, exit-code (got "exit")' },
    {
      text: 'quality:\n  command: npm run lint\n',
      field: 'quality.command',
      problem: 'is not a known setting (known: commands)',
    },
    {
      text: 'quality:\n  commands: []\n',
      field: 'quality.commands',
      problem: 'must list at least one command (got [])',
    },
    {
      text: 'baseBranch: "feature..x"\n',
      field: 'baseBranch',
      problem: 'must be a branch name, such as main or release/2.x (got "feature..x")',
    },
    {
      text: 'test: npm test\n',
      field: 'test',
      problem: 'must be a mapping with a `command` (and optionally a `report`) (got "npm test")',
    },
    { text: 'test:\n  command: ""\n', field: 'test.command', problem: 'must not be empty' },
    { text: 'test: {}\n', field: 'test.command', problem: 'is missing' },
    {
      text: 'test:\n  cmd: make\n',
      field: 'test.cmd',
      problem: 'is not a known setting (known: command, report)',
    },
    { text: 'tset:\n  command: make\n', field: 'tset', problem: 'is not a known setting' },
    {
      text: 'sandbox: maybe\n',
      field: 'sandbox',
      problem: 'must be one of auto, required, off (got "maybe")',
    },
    { text: 'protectedPaths: db/**\n', field: 'protectedPaths', problem: 'must be a list of globs' },
    {
      text: 'protectedPaths: ["ok", 3]\n',
      field: 'protectedPaths.1',
      problem: 'must be a glob string (got 3)',
    },
    { text: 'test: [unclosed\n', field: 'the file', problem: 'is not valid YAML' },
    { text: '- a\n- b\n', field: 'the file', problem: 'must be a mapping of settings' },
  ];
  for (const row of malformed) {
    it(`refuses ${JSON.stringify(row.text)} naming ${row.field}`, () => {
      const err = failure(row.text);
      expect(err.retryable).toBe(false);
      expect(err.params.field).toBe(row.field);
      expect(err.message).toContain(`.github/booty.yml is invalid: ${row.field} ${row.problem}`);
    });
  }
});
