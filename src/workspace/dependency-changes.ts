import path from 'node:path/posix';
import type { DependencyChange, FileChange } from '../events/effect-results.js';
import { isManifest } from '../sandbox/install-step.js';

// What a change does to the project's dependencies, for the PR body: a reviewer should not have to
// find a new package in a diff. package.json is read as JSON (added, removed and changed versions);
// other manifests show the lines the change added and removed; lockfiles are named.

const SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const LOCKFILES =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|go\.sum|poetry\.lock|uv\.lock|Pipfile\.lock)$/;
const MAX_LINES = 30;

function npmDependencies(text: string | null): Map<string, string> {
  const deps = new Map<string, string>();
  try {
    const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    for (const section of SECTIONS) {
      const entries = json[section];
      if (entries && typeof entries === 'object') {
        for (const [name, version] of Object.entries(entries)) deps.set(name, `${version} (${section})`);
      }
    }
  } catch {
    // Not JSON: the tests will say so; here it simply lists nothing.
  }
  return deps;
}

function packageJson(before: string | null, after: string | null): string[] {
  const old = npmDependencies(before);
  const now = npmDependencies(after);
  const lines: string[] = [];
  for (const [name, version] of now) {
    if (!old.has(name)) lines.push(`+ ${name} ${version}`);
    else if (old.get(name) !== version) lines.push(`~ ${name} ${old.get(name)} → ${version}`);
  }
  for (const [name, version] of old) if (!now.has(name)) lines.push(`- ${name} ${version}`);
  return lines;
}

const meaningful = (text: string | null) =>
  new Set(
    (text ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#') && !l.startsWith('//')),
  );

function lineDiff(before: string | null, after: string | null): string[] {
  const old = meaningful(before);
  const now = meaningful(after);
  return [
    ...[...now].filter((l) => !old.has(l)).map((l) => `+ ${l}`),
    ...[...old].filter((l) => !now.has(l)).map((l) => `- ${l}`),
  ];
}

/** The changed paths that dependencyChanges reads at the base commit. */
export const dependencyPaths = (changes: readonly FileChange[]) =>
  changes.map((c) => c.path).filter((p) => isManifest(p) || LOCKFILES.test(p));

export async function dependencyChanges(
  changes: readonly FileChange[],
  readBase: (file: string) => Promise<string | null>,
): Promise<DependencyChange[]> {
  const out: DependencyChange[] = [];
  for (const change of changes) {
    if (!isManifest(change.path) && !LOCKFILES.test(change.path)) continue;
    const before = await readBase(change.path);
    if (before === change.content) continue;
    let lines: string[];
    if (LOCKFILES.test(change.path))
      lines = [change.content === null ? 'deleted' : before === null ? 'added' : 'updated'];
    else if (path.basename(change.path) === 'package.json') lines = packageJson(before, change.content);
    else lines = lineDiff(before, change.content);
    if (lines.length === 0) continue;
    out.push({
      file: change.path,
      lines:
        lines.length > MAX_LINES
          ? [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more`]
          : lines,
    });
  }
  return out;
}
