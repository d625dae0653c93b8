import { parseDocument } from 'yaml';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import type { RepoConfig } from '../events/effect-results.js';

// The repository's `.github/booty.yml` (else `.booty.yml`), read from the default branch only, so
// an issue can never change its own test command. Without a file the setup is detected from the
// files at the root. A malformed file fails the job with the field and the problem quoted. A file
// may build on another with `_extends`, and a repository without one takes its organization's
// (config-extends.ts); this file parses one file, and merges a base with what builds on it.

export const CONFIG_PATHS = ['.github/booty.yml', '.booty.yml'] as const;

/** On GitLab the file lives in `.gitlab/` (then `.booty.yml`), with the same schema. */
export const GITLAB_CONFIG_PATHS = ['.gitlab/booty.yml', '.booty.yml'] as const;

export const configPathsOf = (forge: 'github' | 'gitlab'): readonly string[] =>
  forge === 'gitlab' ? GITLAB_CONFIG_PATHS : CONFIG_PATHS;

export const DEFAULT_PROTECTED_PATHS = [
  '.github/workflows/**',
  '**/.env*',
  '**/*.pem',
  '.github/booty.yml',
  '.gitlab/booty.yml',
  '.gitlab-ci.yml',
  '.booty.yml',
  // Package-manager settings and hooks: they redirect installs or run code during them.
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/.pnpmfile.cjs',
  '**/pip.conf',
  '**/.cargo/config',
  '**/.cargo/config.toml',
  '**/uv.toml',
  '**/poetry.toml',
  '**/bunfig.toml',
];

export const DEFAULT_TIMEOUT_SECONDS = 600;

export const DEFAULT_MAX_FOLLOW_UPS = 5;
export const DEFAULT_MAX_CI_FIXES = 3;
export const DEFAULT_STALL_AFTER = 2;

/** A bound on a job's rounds once its PR is open. */
const rounds = (what: string) =>
  z
    .number({ error: `must be a number of ${what}` })
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(50, 'must be at most 50')
    .optional();

const command = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty');

/** A GitHub login (`octocat`) or a team (`org/team`), with or without the leading `@`. */
const reviewer = z
  .string({ error: 'must be a user (octocat) or a team (org/team)' })
  .trim()
  .transform((s) => s.replace(/^@/, ''))
  .pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,99})?$/,
        'must be a user (octocat) or a team (org/team)',
      ),
  );

/** A branch name git accepts (see git-check-ref-format), without refs/heads/. */
const branchName = z
  .string({ error: 'must be a branch name' })
  .trim()
  .min(1, 'must not be empty')
  .regex(
    /^(?!\/|.*\/$|.*\/\/|.*\.\.|.*@\{|.*\.lock$|refs\/|-)[^\s~^:?*[\\\p{Cc}]+$/u,
    'must be a branch name, such as main or release/2.x',
  );

export const RepoConfigFile = z
  .object({
    test: z
      .object(
        {
          command,
          report: z
            .union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
              error: 'must be a path or glob (or a list of them) of a JUnit, TAP or go test -json report',
            })
            .optional(),
        },
        { error: 'must be a mapping with a `command` (and optionally a `report`)' },
      )
      .strict()
      .optional(),
    install: z
      .object({ command }, { error: 'must be a mapping with a `command`, or null' })
      .strict()
      .nullable()
      .optional(),
    timeoutSeconds: z
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(1, 'must be at least 1')
      .max(7200, 'must be at most 7200 (two hours)')
      .optional(),
    maxAttempts: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(10, 'must be at most 10')
      .optional(),
    maxFollowUps: rounds('review and @booty rounds'),
    maxCiFixes: rounds('rounds that fix red CI'),
    protectedPaths: z
      .array(z.string({ error: 'must be a glob string' }).min(1, 'must not be empty'), {
        error: 'must be a list of globs',
      })
      .optional(),
    sandbox: z.enum(['auto', 'required', 'off'], { error: 'must be one of auto, required, off' }).optional(),
    /** Attempts in a row without improvement after which the refine loop stops early. */
    stallAfter: z
      .number({ error: 'must be a number of attempts' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(10, 'must be at most 10')
      .optional(),
    /** Who is asked to review (or assigned) when a job gives up: users and org/team names. */
    escalate: z
      .array(reviewer, { error: 'must be a list of users and teams, such as [octocat, my-org/maintainers]' })
      .max(15, 'must name at most 15 users and teams')
      .optional(),
    /** `plan`: after analysis, booty posts its plan and waits for a writer's `@booty approve`. */
    approval: z.enum(['plan', 'none'], { error: 'must be one of plan, none' }).optional(),
    /** Commands run after the tests (lint, typecheck); a new failure among them blocks promotion. */
    quality: z
      .object(
        {
          commands: z
            .array(command, { error: 'must be a list of commands' })
            .min(1, 'must list at least one command')
            .max(10, 'must list at most 10 commands'),
        },
        { error: 'must be a mapping with a list of `commands`' },
      )
      .strict()
      .optional(),
    /** The branch PRs are opened against; unset means the repository's default branch. */
    baseBranch: branchName.optional(),
    /**
     * `exit-code`: a change whose tests exit 0 passes where booty cannot read enough of their
     * results, shown in the PR as weak evidence. Never the default: `tests` needs results booty reads.
     */
    gate: z.enum(['tests', 'exit-code'], { error: 'must be one of tests, exit-code' }).optional(),
    /** Dollars one job may spend on the model; it only lowers the operator's BOOTY_MAX_USD_PER_JOB. */
    maxUsd: z
      .number({ error: 'must be a number of dollars' })
      .positive('must be more than 0')
      .max(10_000, 'must be at most 10000')
      .optional(),
    /** Probot's convention: the settings this file builds on (`.github`, `repo`, `owner/repo:path.yml`). */
    _extends: z
      .string({ error: 'must be a repository (.github, repo or owner/repo), optionally with :path.yml' })
      .min(1, 'must not be empty')
      .optional(),
  })
  .strict();
export type RepoConfigFile = z.infer<typeof RepoConfigFile>;

export interface DetectedSetup {
  test: string;
  install: string | null;
}

/** Extras a Python project declares for its tests, in the order booty prefers them. */
const TEST_EXTRAS = ['test', 'tests', 'testing', 'dev'];

function pythonExtras(pyproject: string | null): string[] {
  const section = /^\[project\.optional-dependencies\]\s*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(
    pyproject ?? '',
  );
  const declared = [...(section?.[1] ?? '').matchAll(/^([A-Za-z][\w.-]*)\s*=/gm)].map((m) => m[1]!);
  const extra = TEST_EXTRAS.find((e) => declared.includes(e));
  return extra ? [extra] : [];
}

/**
 * The setup implied by the files at the repository root, or null. Installs land in the job's
 * sandbox HOME (a virtualenv, cargo's and go's caches), which every test run of the job sees.
 */
export function detectSetup(
  rootFiles: readonly string[],
  texts: { pyproject?: string | null } = {},
): DetectedSetup | null {
  const has = (name: string) => rootFiles.includes(name);
  if (has('package.json')) {
    // `npm ci` refuses to run without a lockfile.
    const locked = has('package-lock.json') || has('npm-shrinkwrap.json');
    return { test: 'npm test', install: locked ? 'npm ci' : 'npm install' };
  }
  const python = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', 'pytest.ini', 'tox.ini'];
  if (python.some(has)) {
    const pip: string[] = [];
    if (has('pyproject.toml') || has('setup.py')) {
      const extras = pythonExtras(texts.pyproject ?? null);
      pip.push(`-e ".${extras.length ? `[${extras.join(',')}]` : ''}"`);
    }
    for (const req of [
      'requirements.txt',
      'requirements-dev.txt',
      'requirements-test.txt',
      'test-requirements.txt',
    ]) {
      if (has(req)) pip.push(`-r ${req}`);
    }
    // Without a pip of its own (copying one in costs ~3 CPU s a job): the machine's pip, seen
    // through the system site packages, installs into the venv; ensurepip only where there is none.
    const venv = 'python3 -m venv --system-site-packages --without-pip "$HOME/.venv"';
    const venvPython = '"$HOME/.venv/bin/python"';
    const withPip = `{ ${venvPython} -m pip --version >/dev/null 2>&1 || ${venvPython} -m ensurepip --default-pip >/dev/null; }`;
    return {
      test: 'python -m pytest',
      install: pip.length ? `${venv} && ${withPip} && ${venvPython} -m pip install ${pip.join(' ')}` : venv,
    };
  }
  if (has('go.mod')) return { test: 'go test ./...', install: has('go.sum') ? 'go mod download' : null };
  if (has('Cargo.toml')) return { test: 'cargo test', install: 'cargo fetch' };
  return null;
}

const valueAt = (data: unknown, keys: PropertyKey[]) =>
  keys.reduce<unknown>(
    (v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    data,
  );

function invalid(file: string, field: string, problem: string): BootyError {
  return new BootyError('BOOTY_E_CONFIG_INVALID', { path: file, field, problem });
}

/** Parses a config file's text; throws BOOTY_E_CONFIG_INVALID naming the field. */
export function parseConfigFile(file: string, text: string): RepoConfigFile {
  const doc = parseDocument(text, { prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) throw invalid(file, 'the file', `is not valid YAML: ${yamlError.message.split('\n')[0]}`);
  const data = doc.toJS() ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw invalid(file, 'the file', 'must be a mapping of settings (test, install, timeoutSeconds, ...)');
  }
  const parsed = RepoConfigFile.safeParse(data);
  if (parsed.success) return parsed.data;
  // A misspelt key also makes its correct spelling missing: name the misspelling.
  const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
  const where = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = [...issue.path.map(String), issue.keys[0]].join('.');
    const known =
      where === ''
        ? Object.keys(RepoConfigFile.shape).join(', ')
        : where === 'test'
          ? 'command, report'
          : where === 'quality'
            ? 'commands'
            : 'command';
    throw invalid(file, key, `is not a known setting (known: ${known})`);
  }
  const value = valueAt(data, issue.path);
  if (value === undefined) throw invalid(file, where || 'the file', 'is missing');
  throw invalid(file, where || 'the file', `${issue.message} (got ${JSON.stringify(value)})`);
}

/**
 * A file's settings over its base's: each key the file sets replaces the base's, except that
 * protected paths add up (a repository cannot unprotect what its organization protects).
 */
export function mergeConfig(base: RepoConfigFile, over: RepoConfigFile): RepoConfigFile {
  const { _extends: _, ...merged } = { ...base, ...over };
  const paths = [...(base.protectedPaths ?? []), ...(over.protectedPaths ?? [])];
  return paths.length ? { ...merged, protectedPaths: [...new Set(paths)] } : merged;
}

/** The effective config from the file (if any), detection, and the job's defaults. */
export function resolveConfig(input: {
  /** The file's text, or settings already read and merged (`path` then names the chain). */
  file: { path: string; text: string } | { path: string; data: RepoConfigFile } | null;
  rootFiles: readonly string[];
  /** The root pyproject.toml, for the test extras of a detected Python setup. */
  pyproject?: string | null;
  defaultMaxAttempts: number;
}): RepoConfig {
  const parsed = !input.file
    ? {}
    : 'data' in input.file
      ? input.file.data
      : parseConfigFile(input.file.path, input.file.text);
  const detected = detectSetup(input.rootFiles, { pyproject: input.pyproject });
  const test = parsed.test?.command ?? detected?.test;
  if (!test) {
    if (input.file)
      throw invalid(input.file.path, 'test.command', 'is missing, and no test command could be detected');
    throw new BootyError('BOOTY_E_NO_TEST_COMMAND');
  }
  // An explicit `install: null` turns off a detected install step.
  const install =
    parsed.install === undefined ? (detected?.install ?? null) : (parsed.install?.command ?? null);
  return {
    source: input.file ? 'file' : 'detected',
    path: input.file?.path ?? null,
    test: { command: test, report: [parsed.test?.report ?? []].flat() },
    install: install ? { command: install } : null,
    timeoutSeconds: parsed.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    maxAttempts: parsed.maxAttempts ?? input.defaultMaxAttempts,
    maxFollowUps: parsed.maxFollowUps ?? DEFAULT_MAX_FOLLOW_UPS,
    maxCiFixes: parsed.maxCiFixes ?? DEFAULT_MAX_CI_FIXES,
    protectedPaths: [...new Set([...DEFAULT_PROTECTED_PATHS, ...(parsed.protectedPaths ?? [])])],
    // Unset means no request: the operator's BOOTY_SANDBOX applies as it is.
    sandbox: parsed.sandbox ?? null,
    stallAfter: parsed.stallAfter ?? DEFAULT_STALL_AFTER,
    escalate: parsed.escalate ?? [],
    approval: parsed.approval ?? 'none',
    quality: { commands: parsed.quality?.commands ?? [] },
    baseBranch: parsed.baseBranch ?? null,
    gate: parsed.gate ?? 'tests',
    ...(parsed.maxUsd === undefined ? {} : { maxUsd: parsed.maxUsd }),
  };
}
