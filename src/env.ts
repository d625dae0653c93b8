import os from 'node:os';
import { z } from 'zod';
import { ENV_ALIASES, recordSources, withAliases, withSecretFiles } from './env-sources.js';
import { BootyError } from './errors.js';

// Every environment variable booty reads, checked once at start. A missing or malformed one stops
// start-up with a line naming it. Secrets stay in this object and never enter events or logs.
// Probot's names are accepted too (env-sources.ts), so an App set up the Probot way runs unchanged.

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v : undefined));
const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/**
 * A token's shape, before GitHub is ever asked: a stray newline, quotes or a half-copied token
 * otherwise surface as a 401 on the first job. Known prefixes are checked strictly; anything else
 * (GitHub Enterprise's older 40-hex tokens) only has to look like a token.
 */
export function tokenProblem(token: string): string | null {
  if (/\s/.test(token))
    return 'has whitespace in it (a newline or space copied with it?); set the token alone';
  if (/^["'`]|["'`]$/.test(token)) return 'is wrapped in quotes; set the token without them';
  if (/^gh[pousr]_/.test(token) && !/^gh[pousr]_[A-Za-z0-9]{30,}$/.test(token))
    return `starts like a GitHub token (${token.slice(0, 4)}…) but the rest is not its letters and digits; copy it again`;
  if (token.startsWith('github_pat_') && !/^github_pat_[A-Za-z0-9_]{22,}$/.test(token))
    return 'starts like a fine-grained token (github_pat_…) but the rest is not its letters, digits and _; copy it again';
  if (!/^[A-Za-z0-9_.-]{20,}$/.test(token))
    return 'does not look like a GitHub token (ghp_…, github_pat_…, ghs_…, gho_…, or 40 hex digits)';
  return null;
}

/**
 * Variables the sandbox decides itself: the scrubbed basics, the detected toolchains' homes
 * (toolchains.ts), the switches that keep an untrusted install's scripts off (install-step.ts),
 * and the reporters' settings.
 * Passing booty's own value would undo what it decided.
 */
const SANDBOX_SETS = new Set([
  'PATH',
  'HOME',
  'CI',
  'LANG',
  'NO_COLOR',
  'FORCE_COLOR',
  'TERM',
  'VIRTUAL_ENV',
  'PYENV_ROOT',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'GOROOT',
  'JAVA_HOME',
  'NVM_DIR',
  'NPM_CONFIG_IGNORE_SCRIPTS',
  'YARN_ENABLE_SCRIPTS',
  'PIP_ONLY_BINARY',
  'PIP_NO_BINARY',
  // The reporters booty asks for through the environment (reports/reporter-plan.ts).
  'PYTEST_ADDOPTS',
  'SPEC_OPTS',
  'RUBYLIB',
  'PW_TEST_REPORTER',
  'PLAYWRIGHT_JUNIT_OUTPUT_FILE',
  'NODE_OPTIONS',
  'TAP',
]);

/**
 * booty's own settings, every name it reads one from (Probot's, GitHub Enterprise's, a secret's
 * _FILE), upper-cased: taken from the schema itself, so a setting added later is refused too.
 */
let ownSettings: Set<string> | undefined;
const ownSettingNames = () =>
  (ownSettings ??= new Set(
    [...Object.keys(EnvSchema.shape), ...Object.keys(ENV_ALIASES), 'GHE_HOST', 'GHE_PROTOCOL'].flatMap(
      (name) => [name, `${name}_FILE`],
    ),
  ));

/** Why a name cannot be passed into the sandbox (BOOTY_SANDBOX_ENV), or null when it can. */
export function sandboxEnvProblem(name: string): string | null {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return 'is not a variable name (letters, digits and _, not starting with a digit); list names only, as in HTTPS_PROXY,NO_PROXY';
  const upper = name.toUpperCase();
  if (SANDBOX_SETS.has(upper)) return 'is set by the sandbox itself, and cannot be passed in';
  if (ownSettingNames().has(upper) || /^(BOOTY|GITHUB|GITLAB|ANTHROPIC)_/.test(upper))
    return "is one of booty's own settings or secrets, which never reach the code under test";
  return null;
}

const token = optionalText.superRefine((value, ctx) => {
  const problem = value === undefined ? null : tokenProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const appId = optionalText.refine((v) => v === undefined || /^\d+$/.test(v.trim()), {
  message:
    "must be the App's numeric id (its settings page, About: App ID), not its client id (Iv1.…) or its name",
});

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const apiUrl = httpUrl.refine((v) => !/^https?:\/\/(www\.)?github\.com\/?$/i.test(v), {
  message:
    "is GitHub's web address; the API is https://api.github.com (GitHub Enterprise: https://<host>/api/v3)",
});

/** A GitLab token's shape (personal, project or group access tokens are glpat-…), before GitLab is asked. */
export function gitlabTokenProblem(value: string): string | null {
  if (/\s/.test(value))
    return 'has whitespace in it (a newline or space copied with it?); set the token alone';
  if (/^["'`]|["'`]$/.test(value)) return 'is wrapped in quotes; set the token without them';
  if (!/^[A-Za-z0-9_.-]{20,}$/.test(value))
    return 'does not look like a GitLab access token (glpat-…: a project, group or personal access token)';
  return null;
}

const gitlabToken = optionalText.superRefine((value, ctx) => {
  const problem = value === undefined ? null : gitlabTokenProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** The instance's own address: booty adds /api/v4 itself, and git is served beside it. */
const gitlabUrl = httpUrl.refine((v) => !/\/api\/v4\/?$/.test(v), {
  message:
    "is GitLab's API address; give the instance's address (https://gitlab.example.com), booty adds /api/v4",
});

/** Paths booty serves itself, which the webhook path may not take. */
const RESERVED_PATHS = ['/', '/jobs', '/healthz', '/readyz', '/metrics', '/openapi.json', '/stream'];
const RESERVED_PATHS_TEXT = RESERVED_PATHS.slice(1).join(', ');

export const EnvSchema = z.object({
  PORT: int(0, 65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  GITHUB_WEBHOOK_SECRET: optionalText,
  /** The previous secret while a rotation is under way: deliveries signed with either are accepted. */
  GITHUB_WEBHOOK_SECRET_PREVIOUS: optionalText,
  GITHUB_TOKEN: token,
  GITHUB_APP_ID: appId,
  GITHUB_PRIVATE_KEY: optionalText,
  GITHUB_PRIVATE_KEY_PATH: optionalText,
  GITHUB_API_URL: apiUrl.default('https://api.github.com'),
  /** The App's OAuth client, written by `booty app create`; booty itself does not use it yet. */
  GITHUB_CLIENT_ID: optionalText,
  GITHUB_CLIENT_SECRET: optionalText,
  /** Where GitHub posts webhooks (Probot's name and default path). */
  WEBHOOK_PATH: z
    .string()
    .regex(/^\/[\w./-]*$/, 'must be a path like /webhooks or /api/github/webhooks')
    .refine((v) => !RESERVED_PATHS.some((r) => v === r || v.startsWith(`${r}/`)), {
      message: `must not be / or under one of booty's own routes (${RESERVED_PATHS_TEXT})`,
    })
    .default('/webhooks'),
  /** GitLab: the instance (gitlab.com or self-managed), a project or group access token with `api`, and the webhook's secret token. */
  GITLAB_URL: gitlabUrl.default('https://gitlab.com'),
  GITLAB_TOKEN: gitlabToken,
  GITLAB_WEBHOOK_SECRET: optionalText,
  /** The previous secret token while a rotation is under way: deliveries with either are accepted. */
  GITLAB_WEBHOOK_SECRET_PREVIOUS: optionalText,
  /** The forge a server takes deliveries from and acts on; unset, GitLab when only it is configured. */
  BOOTY_FORGE: z.enum(['github', 'gitlab']).optional(),
  /** A smee.io channel (Probot's name): `serve` takes its webhooks from there, for development. */
  WEBHOOK_PROXY_URL: httpUrl.optional(),

  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: httpUrl.optional(),
  BOOTY_MODEL: z.string().min(1).default('claude-sonnet-4-6'),
  BOOTY_MAX_INPUT_TOKENS: int(1_000).default(150_000),
  BOOTY_MAX_TOKENS_PER_JOB: int(1).optional(),
  /** Dollars one job may spend on the model (booty.yml's `maxUsd` may only lower it). */
  BOOTY_MAX_USD_PER_JOB: z.coerce.number().positive().optional(),
  /** Dollars one installation's jobs may spend on the model in a UTC day: new jobs wait past it. */
  BOOTY_MAX_USD_PER_DAY: z.coerce.number().positive().optional(),
  /** Tokens a writer's `@booty continue` adds to a job parked at its budget (default: the budget again). */
  BOOTY_BUDGET_STEP: int(1).optional(),

  BOOTY_DB: z.string().min(1).default('./booty.db'),
  /** A PostgreSQL database (postgres://…) instead of the SQLite file BOOTY_DB, for many workers. */
  BOOTY_DATABASE_URL: optionalText.refine((v) => v === undefined || /^postgres(ql)?:\/\/\S+$/i.test(v), {
    message: 'must be a postgres:// or postgresql:// URL, as in postgres://user:password@host:5432/booty',
  }),
  /** The password of BOOTY_DATABASE_URL's user, kept out of the URL (BOOTY_DATABASE_PASSWORD_FILE: a secret). */
  BOOTY_DATABASE_PASSWORD: optionalText,
  BOOTY_WORKDIR: z.string().min(1).default('./.booty'),
  BOOTY_TRIGGER_LABEL: z.string().min(1).default('booty'),
  /**
   * How people call on booty with a token (`@booty`): its account's login, as they mention it. A
   * GitHub App is called by its own name, which booty reads from GitHub.
   */
  BOOTY_HANDLE: optionalText
    .transform((v) => v?.trim().replace(/^@/, ''))
    .refine((v) => v === undefined || /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/.test(v), {
      message: 'must be a login: letters, digits and inner hyphens, as in booty or booty-bot',
    }),
  BOOTY_CONCURRENCY: int(1, 64).default(2),
  /**
   * On SIGTERM, how long running steps may take to finish before their jobs are handed back (0:
   * hand back at once). Give the process manager more than this and BOOTY_SHUTDOWN_GRACE_MS.
   */
  BOOTY_DRAIN_MS: int(0, 3_600_000).default(60_000),
  /** How long `serve` may spend stopping, after the drain, before it exits anyway. */
  BOOTY_SHUTDOWN_GRACE_MS: int(0, 300_000).default(10_000),
  /** This worker's name in the log, `booty jobs` and /metrics (default: host:pid). */
  BOOTY_WORKER_ID: z
    .string()
    .regex(/^[\w.:@-]{1,100}$/, 'must be 1-100 letters, digits and . : @ - _')
    .optional(),
  /** Workers on PostgreSQL: how long a job's lease lives unrenewed (a killed worker's jobs move on after about this long). */
  BOOTY_LEASE_SECONDS: int(2, 3_600).default(30),
  /** Workers on PostgreSQL: how often a worker with a free slot looks for queued jobs. */
  BOOTY_LEASE_POLL_MS: int(50, 60_000).default(1_000),
  /**
   * With a GitHub App: how often `serve` asks GitHub for webhook deliveries that failed while it was
   * down and has them sent again (it also looks at start); 0 turns it off.
   */
  BOOTY_REDELIVER_MINUTES: int(0, 1_440).default(10),
  /** How long a second `serve` on the same SQLite file waits for the first to exit (a rolling deploy); PostgreSQL takes many. */
  BOOTY_LOCK_WAIT_MS: int(0, 600_000).default(30_000),
  /** The job view at `/` and `/jobs/:id/view`: on, off, or (unset) on only when serving on loopback. */
  BOOTY_DASHBOARD: z.enum(['on', 'off']).optional(),
  /**
   * Who may read the jobs API and the job view: `token` asks every request for a token (`booty
   * token create`); `auto` (the default) lets a server that listens on loopback only answer without.
   */
  BOOTY_API_AUTH: z.enum(['auto', 'token']).default('auto'),
  /** Requests one client may make to the jobs API per minute. */
  BOOTY_API_RATE_LIMIT: int(1, 100_000).default(120),
  /** Where people reach this booty (e.g. https://booty.example.com): comments link to the job view there. */
  BOOTY_PUBLIC_URL: httpUrl.optional(),
  /** Repositories booty may work on, as globs like `org/*`; empty allows all. */
  BOOTY_REPOS: list,
  /** booty's own repository (owner/name): PRs to it stay draft for a human. */
  BOOTY_SELF_REPO: optionalText,
  BOOTY_MAX_ATTEMPTS: int(1, 10).default(3),
  /** Transient failures of one step retried before the job fails, and the first backoff (doubling). */
  BOOTY_MAX_RETRIES: int(0, 20).default(5),
  BOOTY_RETRY_BASE_MS: int(0).default(2_000),
  /** How tests are contained: required (bubblewrap or refuse), auto (bubblewrap when present), off. */
  BOOTY_SANDBOX: z.enum(['required', 'auto', 'off']).optional(),
  /** Extra directories bound read-only into the sandbox (toolchains booty does not detect). */
  BOOTY_SANDBOX_RO_PATHS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(/[:,]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /**
   * Names of booty's environment variables the install and test commands get too, with booty's
   * values: a proxy (HTTPS_PROXY, NO_PROXY), a private registry (PIP_INDEX_URL). Never booty's
   * own settings and secrets, and never the variables the sandbox sets itself.
   */
  BOOTY_SANDBOX_ENV: list
    .superRefine((names, ctx) => {
      for (const name of names) {
        const problem = sandboxEnvProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', message: `${name} ${problem}` });
      }
    })
    // The names that are set, each with its value: loadEnv reads them from where booty's settings
    // come from (./.env too).
    .transform((names): Record<string, string> => Object.fromEntries(names.map((n) => [n, '']))),
  BOOTY_GIT_AUTHOR_NAME: z.string().min(1).default('booty[bot]'),
  BOOTY_GIT_AUTHOR_EMAIL: z.string().min(3).default('booty[bot]@users.noreply.github.com'),
});

export type Env = z.infer<typeof EnvSchema>;

/** Where the event store is: BOOTY_DATABASE_URL when set, else the SQLite file BOOTY_DB. */
export const storeLocation = (env: Pick<Env, 'BOOTY_DB' | 'BOOTY_DATABASE_URL'>) =>
  env.BOOTY_DATABASE_URL ?? env.BOOTY_DB;

/** Who this process is, in the log and to the other workers: BOOTY_WORKER_ID, else host:pid. */
export const workerId = (env: Pick<Env, 'BOOTY_WORKER_ID'>) =>
  env.BOOTY_WORKER_ID ?? `${os.hostname()}:${process.pid}`;

/** How the workers sharing a PostgreSQL database lease its jobs. */
export const leaseSettings = (env: Pick<Env, 'BOOTY_LEASE_SECONDS' | 'BOOTY_LEASE_POLL_MS'>) => ({
  seconds: env.BOOTY_LEASE_SECONDS,
  pollMs: env.BOOTY_LEASE_POLL_MS,
});

export interface EnvRequirements {
  /** `booty serve` needs a webhook secret and GitHub credentials; read-only commands need none. */
  server?: boolean;
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env, needs: EnvRequirements = {}): Env {
  const files = withSecretFiles(source);
  const aliased = withAliases(files.values);
  const { values } = aliased;
  const from = { ...files.from, ...aliased.from };
  // An error names the variable the operator set: Probot's name, or NAME_FILE, when that is where
  // it came from.
  const named = (name: string) => from[name] ?? name;
  const parsed = EnvSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: named(String(issue.path[0])),
      reason: `is invalid: ${issue.message}`,
    });
  }
  const env = withDatabasePassword(parsed.data, named);
  for (const name of Object.keys(env.BOOTY_SANDBOX_ENV)) {
    const value = values[name];
    if (value === undefined) delete env.BOOTY_SANDBOX_ENV[name];
    else env.BOOTY_SANDBOX_ENV[name] = value;
  }
  recordSources(env, from);
  if (needs.server) {
    checkGitLab(env);
    // GitHub is served when anything of it is set, or when nothing of GitLab is.
    if (env.BOOTY_FORGE === 'github' || (env.BOOTY_FORGE === undefined && githubConfigured(env)))
      checkGitHub(env);
    if (env.BOOTY_FORGE === 'gitlab' && !gitlabConfigured(env))
      throw new BootyError('BOOTY_E_ENV_INVALID', {
        name: 'GITLAB_TOKEN',
        reason: 'is missing: BOOTY_FORGE is gitlab; set GITLAB_TOKEN and GITLAB_WEBHOOK_SECRET',
      });
    if (!env.ANTHROPIC_API_KEY) {
      throw new BootyError('BOOTY_E_ENV_INVALID', {
        name: 'ANTHROPIC_API_KEY',
        reason: 'is missing: booty needs it to call Claude',
      });
    }
  }
  return env;
}

/** Whether booty serves GitHub: something of it is set, or nothing of GitLab is (GitHub is the default forge). */
export const githubConfigured = (env: Env) =>
  Boolean(env.GITHUB_WEBHOOK_SECRET || env.GITHUB_TOKEN || env.GITHUB_APP_ID) || !gitlabConfigured(env);

/** Whether booty serves GitLab: its token or its webhook's secret is set. */
export const gitlabConfigured = (env: Env) => Boolean(env.GITLAB_TOKEN || env.GITLAB_WEBHOOK_SECRET);

/** The forge booty serves: BOOTY_FORGE, else GitHub unless only GitLab is configured. */
export const servedForge = (env: Env): 'github' | 'gitlab' =>
  env.BOOTY_FORGE ?? (gitlabConfigured(env) && !githubSet(env) ? 'gitlab' : 'github');

const githubSet = (env: Env) => Boolean(env.GITHUB_WEBHOOK_SECRET || env.GITHUB_TOKEN || env.GITHUB_APP_ID);

/** Every forge booty serves: BOOTY_FORGE alone, else each one the env configures, GitHub first. */
export const servedForges = (env: Env): ('github' | 'gitlab')[] =>
  env.BOOTY_FORGE ? [env.BOOTY_FORGE] : configuredForges(env);

/** The forges a server takes deliveries from, GitHub first. */
export const configuredForges = (env: Env): ('github' | 'gitlab')[] => [
  ...(githubConfigured(env) ? (['github'] as const) : []),
  ...(gitlabConfigured(env) ? (['gitlab'] as const) : []),
];

function checkGitLab(env: Env) {
  if (!gitlabConfigured(env)) return;
  if (!env.GITLAB_TOKEN) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITLAB_TOKEN',
      reason:
        'is missing: GITLAB_WEBHOOK_SECRET is set, so booty serves GitLab; set GITLAB_TOKEN to a project or group access token with the api scope and the Developer role',
    });
  }
  if (!env.GITLAB_WEBHOOK_SECRET) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITLAB_WEBHOOK_SECRET',
      reason:
        "is missing: GITLAB_TOKEN is set, so booty serves GitLab; set it to the webhook's secret token (Settings > Webhooks)",
    });
  }
}

function checkGitHub(env: Env) {
  if (!env.GITHUB_WEBHOOK_SECRET) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITHUB_WEBHOOK_SECRET',
      reason:
        "is missing: set it (or Probot's WEBHOOK_SECRET) to the secret of your GitHub App or repository webhook",
    });
  }
  if (!env.GITHUB_TOKEN && !env.GITHUB_APP_ID) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITHUB_TOKEN',
      reason:
        'is missing: set GITHUB_TOKEN, or GITHUB_APP_ID with GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH (`booty app create` makes an App)',
    });
  }
  if (env.GITHUB_APP_ID && !env.GITHUB_PRIVATE_KEY && !env.GITHUB_PRIVATE_KEY_PATH) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITHUB_PRIVATE_KEY',
      reason: 'is missing: a GitHub App needs GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH',
    });
  }
}

/** BOOTY_DATABASE_URL with BOOTY_DATABASE_PASSWORD put in it, which must then be its only password. */
function withDatabasePassword(env: Env, named: (name: string) => string): Env {
  const password = env.BOOTY_DATABASE_PASSWORD;
  if (password === undefined) return env;
  const invalid = (reason: string) =>
    new BootyError('BOOTY_E_ENV_INVALID', { name: named('BOOTY_DATABASE_PASSWORD'), reason });
  if (!env.BOOTY_DATABASE_URL)
    throw invalid('is set, but BOOTY_DATABASE_URL is not: it is the password of that URL’s user');
  const url = new URL(env.BOOTY_DATABASE_URL);
  if (url.password)
    throw invalid(
      `is set, and ${named('BOOTY_DATABASE_URL')} has a password too: leave the password out of the URL`,
    );
  url.password = encodeURIComponent(password);
  return { ...env, BOOTY_DATABASE_URL: url.href };
}

/** Whether a repository (owner/name) is booty's own: its PRs stay draft for a human. */
export const isSelfRepo = (env: Pick<Env, 'BOOTY_SELF_REPO'>, fullName: string) =>
  env.BOOTY_SELF_REPO !== undefined && fullName.toLowerCase() === env.BOOTY_SELF_REPO.toLowerCase();

/** Every secret value booty holds, for scrubbing text before it is published. */
export function secretValues(env: Env, privateKey?: string | null): string[] {
  return [
    env.GITHUB_TOKEN,
    env.GITHUB_WEBHOOK_SECRET,
    env.GITHUB_WEBHOOK_SECRET_PREVIOUS,
    env.GITHUB_PRIVATE_KEY,
    env.GITHUB_CLIENT_SECRET,
    env.GITLAB_TOKEN,
    env.GITLAB_WEBHOOK_SECRET,
    env.GITLAB_WEBHOOK_SECRET_PREVIOUS,
    privateKey ?? undefined,
    env.ANTHROPIC_API_KEY,
    env.BOOTY_DATABASE_PASSWORD,
    ...Object.values(env.BOOTY_SANDBOX_ENV).flatMap(urlCredential),
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/**
 * The secret in a URL passed into the sandbox (a proxy's `user:pass@`, a registry's token): the
 * tests may print their environment, and their output reaches the model and the PR. The
 * password, or a user name long enough to be a token where there is no password.
 */
function urlCredential(value: string): string[] {
  if (!value.includes('@')) return [];
  let secret: string;
  try {
    const { username, password } = new URL(value);
    secret = password || (username.length >= 16 ? username : '');
  } catch {
    return [];
  }
  if (!secret) return [];
  // As written in the URL, and as a program that decodes it would print it.
  let decoded = secret;
  try {
    decoded = decodeURIComponent(secret);
  } catch {}
  return [...new Set([secret, decoded])];
}

/** The settings every new job is stamped with, so its replay decides as the live run did. */
export const jobSettingsFrom = (env: Env) => ({
  maxAttempts: env.BOOTY_MAX_ATTEMPTS,
  maxTokens: env.BOOTY_MAX_TOKENS_PER_JOB ?? null,
  budgetStep: env.BOOTY_BUDGET_STEP ?? null,
  // Only when set: the requests of jobs without a dollar cap read as they did.
  ...(env.BOOTY_MAX_USD_PER_JOB === undefined ? {} : { maxUsd: env.BOOTY_MAX_USD_PER_JOB }),
  maxRetries: env.BOOTY_MAX_RETRIES,
  retryBaseMs: env.BOOTY_RETRY_BASE_MS,
});
