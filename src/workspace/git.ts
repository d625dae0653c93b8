import { execa } from 'execa';
import { BootyError } from '../errors.js';
import { scrubSecrets } from '../secrets/scrub.js';

// Runs git for booty itself (never for generated code). Credentials travel only in the child's
// environment as an HTTP header (GIT_CONFIG_COUNT/KEY/VALUE), so they never touch .git/config,
// the command line, or an error message; hooks and fsmonitor are off, because generated code has
// been in the work tree and git must not run anything it finds there.

export interface GitAuth {
  username: string;
  password: string;
}

export interface GitOptions {
  cwd?: string;
  auth?: GitAuth | null;
  signal?: AbortSignal;
  /** What the command is for, in error messages: clone, fetch, push... */
  op: string;
  /** Talks to the remote: failures are retryable unless they are an auth refusal. */
  remote?: boolean;
  input?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Keep stdout byte for byte (file contents), instead of trimming its final newline. */
  raw?: boolean;
}

// Command-line settings win over any config file, so even a config a test could have written
// runs no hook, no fsmonitor, no credential helper, and no ext:: transport (a shell command).
const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'credential.helper=',
  '-c',
  'protocol.ext.allow=never',
];

const AUTH_REFUSED =
  /Authentication failed|could not read Username|terminal prompts disabled|HTTP Basic: Access denied|The requested URL returned error: 40[13]|Permission to .* denied|Repository not found|Invalid username or password/i;

/** booty's environment minus anything that looks like a secret: git never needs them. */
function gitEnv(
  auth: GitAuth | null | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/TOKEN|SECRET|KEY|PASSWORD|^GIT_CONFIG_/i.test(k)) env[k] = v;
  }
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', LC_ALL: 'C' }, extra);
  if (auth) {
    Object.assign(env, {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'http.extraHeader',
      GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic(auth)}`,
    });
  }
  return env;
}

const basic = (auth: GitAuth) => Buffer.from(`${auth.username}:${auth.password}`).toString('base64');

export const secretsOf = (auth: GitAuth | null | undefined) => (auth ? [auth.password, basic(auth)] : []);

export async function git(args: string[], options: GitOptions): Promise<string> {
  const result = await execa('git', [...HARDENING, ...args], {
    cwd: options.cwd,
    env: gitEnv(options.auth, options.env),
    extendEnv: false,
    reject: false,
    input: options.input,
    stdin: options.input === undefined ? 'ignore' : undefined,
    cancelSignal: options.signal,
    timeout: options.timeoutMs ?? 15 * 60_000,
    stripFinalNewline: !options.raw,
  });
  if (result.exitCode === 0) return result.stdout;
  const raw = `${result.stderr || result.stdout || result.shortMessage}`
    .trim()
    .split('\n')
    .slice(-6)
    .join(' | ');
  const reason = scrubSecrets(raw || `exit code ${result.exitCode}`, secretsOf(options.auth)).slice(0, 1_000);
  if (options.remote) {
    if (AUTH_REFUSED.test(raw)) throw new BootyError('BOOTY_E_GIT_AUTH', { op: options.op, reason });
    throw new BootyError('BOOTY_E_GIT_REMOTE', { op: options.op, reason });
  }
  throw new BootyError('BOOTY_E_GIT_FAILED', { op: options.op, reason });
}
