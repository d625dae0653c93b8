import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { FileChange, Rejection } from '../events/effect-results.js';
import { DEFAULT_PROTECTED_PATHS } from './repo-config.js';
import { countTestCases, isTestFile, skipMarkers } from './test-files.js';

// Every change the model proposes is checked here before anything is written. A rejection says
// which rule and why, in words the model can act on at its next attempt.

export type Rule =
  | 'path-invalid'
  | 'path-absolute'
  | 'path-traversal'
  | 'path-git'
  | 'path-protected'
  | 'path-symlink'
  | 'path-not-file'
  | 'file-too-large'
  | 'test-deleted'
  | 'test-skipped'
  | 'test-removed';

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

const reject = (p: string, rule: Rule, reason: string): Rejection => ({ path: p, rule, reason });

/** The syntactic rules: a normalised relative path, or why the path is refused. Pure. */
export function checkPathSyntax(raw: string): { path: string } | Rejection {
  if (raw.trim() === '' || raw.includes('\0')) {
    return reject(
      raw,
      'path-invalid',
      'the path is empty or contains a NUL byte; give a file path such as src/index.ts',
    );
  }
  const slashed = raw.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:\//.test(slashed)) {
    return reject(
      raw,
      'path-absolute',
      'absolute paths are not allowed; give the path relative to the repository root, e.g. src/index.ts',
    );
  }
  const parts = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (parts.includes('..')) {
    return reject(
      raw,
      'path-traversal',
      '`..` would leave the repository; give the path from the repository root without `..`',
    );
  }
  if (parts.length === 0)
    return reject(raw, 'path-invalid', 'the path names the repository root, not a file');
  if (parts.some((s) => s.toLowerCase() === '.git')) {
    return reject(
      raw,
      'path-git',
      "files under .git/ are git's own data and cannot be changed; change files of the project instead",
    );
  }
  return { path: parts.join('/') };
}

/**
 * Files that hold credentials by convention. The model may see that they exist, never what they
 * hold: a token committed by mistake must not travel to the model's provider in a prompt.
 */
export const SECRET_PATHS = [
  '**/.env*',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa*',
  '**/id_ed25519*',
  '**/.npmrc',
  '**/.yarnrc',
  '**/.yarnrc.yml',
  '**/.pypirc',
  '**/pip.conf',
  '**/.netrc',
  '**/.git-credentials',
];
export const holdsSecrets = (p: string) => protectedBy(p, SECRET_PATHS) !== null;

/** The protected-path rule. Pure. */
export function protectedBy(p: string, globs: readonly string[]): string | null {
  for (const glob of globs) if (picomatch.isMatch(p, glob, { dot: true })) return glob;
  return null;
}

/** The glob (booty's defaults, then the repository's own) that protects a path as given, or null. */
export function protectedPath(raw: string, protectedPaths: readonly string[]): string | null {
  const syntax = checkPathSyntax(raw);
  return 'rule' in syntax ? null : protectedBy(syntax.path, [...DEFAULT_PROTECTED_PATHS, ...protectedPaths]);
}

/**
 * No symbolic link on the way. A link a test left in the work tree could lead outside it, or into
 * .git, and booty writes the logged changes again after every run: a change goes to the real path.
 */
async function checkSymlinks(dir: string, p: string): Promise<Rejection | null> {
  const root = await realpath(dir);
  const parts = p.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const stat = await lstat(path.join(dir, rel)).catch(() => null);
    if (!stat) return null; // the rest does not exist yet: it will be created as plain directories
    if (stat.isSymbolicLink()) {
      const target = await realpath(path.join(dir, rel)).catch(() => null);
      const targetRel = target?.startsWith(`${root}${path.sep}`) ? path.relative(root, target) : null;
      if (targetRel === null || targetRel === '.git' || targetRel.startsWith(`.git${path.sep}`)) {
        return reject(
          p,
          'path-symlink',
          `${rel} is a symbolic link that leads outside the repository; change files that are inside it`,
        );
      }
      const real = [targetRel, ...parts.slice(i)].join('/');
      return reject(p, 'path-symlink', `${rel} is a symbolic link; change ${real} instead`);
    }
    if (i < parts.length && !stat.isDirectory()) {
      return reject(p, 'path-not-file', `${rel} is a file, so ${p} cannot be created under it`);
    }
    if (i === parts.length && stat.isDirectory()) {
      return reject(p, 'path-not-file', `${p} is a directory; changes replace whole files`);
    }
  }
  return null;
}

/** The test rules: existing tests are not deleted, skipped, or thinned out. Pure. */
export function checkTestChange(p: string, before: string | null, after: string | null): Rejection | null {
  if (before === null || !isTestFile(p)) return null;
  if (after === null) {
    return reject(
      p,
      'test-deleted',
      `${p} is an existing test file; deleting it is not allowed. Fix the code so the tests pass instead`,
    );
  }
  const skipsBefore = skipMarkers(p, before);
  const skipsAfter = skipMarkers(p, after);
  if (skipsAfter.length > skipsBefore.length) {
    const added = skipsAfter.find((s) => !skipsBefore.includes(s)) ?? skipsAfter.at(-1);
    return reject(
      p,
      'test-skipped',
      `the change adds \`${added}\` to the existing test file ${p}; existing tests must keep running. Fix the code instead of skipping tests`,
    );
  }
  const casesBefore = countTestCases(p, before);
  const casesAfter = countTestCases(p, after);
  if (casesAfter < casesBefore) {
    return reject(
      p,
      'test-removed',
      `the change leaves ${casesAfter} test cases in ${p}, where there were ${casesBefore}; keep every existing test case (you may add new ones)`,
    );
  }
  return null;
}

export interface PolicyInput {
  /** The job's work tree, for the symlink checks. */
  dir: string;
  changes: FileChange[];
  protectedPaths: readonly string[];
  maxFileBytes?: number;
  /** A file's content on the base commit, or null when it did not exist there. */
  readBase: (path: string) => Promise<string | null>;
}

export interface PolicyResult {
  accepted: FileChange[];
  rejected: Rejection[];
}

/** Checks every proposed change; writes nothing. The last change to a path wins. */
export async function checkChanges(input: PolicyInput): Promise<PolicyResult> {
  const maxBytes = input.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const globs = [...new Set([...DEFAULT_PROTECTED_PATHS, ...input.protectedPaths])];
  const latest = new Map<string, FileChange>();
  const rejected: Rejection[] = [];
  for (const change of input.changes) {
    const syntax = checkPathSyntax(change.path);
    if ('rule' in syntax) rejected.push(syntax);
    else latest.set(syntax.path, { path: syntax.path, content: change.content });
  }
  const accepted: FileChange[] = [];
  for (const change of latest.values()) {
    const glob = protectedBy(change.path, globs);
    if (glob) {
      rejected.push(
        reject(
          change.path,
          'path-protected',
          `${change.path} is protected (matches \`${glob}\`); booty may not change it. Leave it as it is and change other files`,
        ),
      );
      continue;
    }
    const size = change.content === null ? 0 : Buffer.byteLength(change.content);
    if (size > maxBytes) {
      rejected.push(
        reject(
          change.path,
          'file-too-large',
          `the new ${change.path} is ${size} bytes, over the limit of ${maxBytes}; keep files small, and do not commit generated or vendored files`,
        ),
      );
      continue;
    }
    const link = await checkSymlinks(input.dir, change.path);
    if (link) {
      rejected.push(link);
      continue;
    }
    const test = checkTestChange(change.path, await input.readBase(change.path), change.content);
    if (test) {
      rejected.push(test);
      continue;
    }
    accepted.push(change);
  }
  return { accepted, rejected };
}
