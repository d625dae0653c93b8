import { execa } from 'execa';

// git as the eval harness uses it on the task's own repositories (never on generated code's
// behalf): fixed names and dates, so the same files make the same commit on every run, and the
// model sees the same commit ids when a recorded run is replayed.

export const EVAL_AUTHOR = {
  GIT_AUTHOR_NAME: 'booty eval',
  GIT_AUTHOR_EMAIL: 'eval@booty.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'booty eval',
  GIT_COMMITTER_EMAIL: 'eval@booty.invalid',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

export interface GitCall {
  /** The repository: a bare one's directory (as --git-dir), or a work tree (as cwd). */
  gitDir?: string;
  cwd?: string;
  input?: string;
  env?: Record<string, string>;
}

/** Runs git; stdout as it is. Throws with git's own words when it fails. */
export async function git(args: string[], call: GitCall = {}): Promise<string> {
  const result = await execa(
    'git',
    [
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'protocol.ext.allow=never',
      ...(call.gitDir ? ['--git-dir', call.gitDir] : []),
      ...args,
    ],
    {
      cwd: call.cwd,
      input: call.input,
      env: { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...EVAL_AUTHOR, ...call.env },
      stripFinalNewline: false,
      maxBuffer: 256 * 1024 * 1024,
      reject: false,
    },
  );
  if (result.exitCode !== 0) {
    const said = (result.stderr || result.stdout).trim().split('\n').slice(-3).join(' / ');
    throw new Error(`git ${args[0]} failed: ${said || `exit ${result.exitCode}`}`);
  }
  return result.stdout;
}
