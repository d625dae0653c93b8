import path from 'node:path';
import type { Analysis } from '../events/effect-results.js';

// Which repository files the model should see, most relevant first. The order is a pure function
// of the file list, the analysis and the issue text, so the same job always builds the same context.

/** Never worth their tokens: generated, vendored, binary or lock files. */
const NOISE = [
  /(^|\/)(node_modules|vendor|dist|build|coverage|\.next|target|__pycache__)\//,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb|Cargo\.lock|poetry\.lock|Gemfile\.lock|go\.sum|composer\.lock)$/,
  /\.min\.(js|css)$/,
  /\.(png|jpe?g|gif|webp|ico|bmp|svg|pdf|zip|gz|tgz|tar|jar|wasm|woff2?|ttf|eot|mp[34]|mov|so|dylib|dll|exe|bin|db|sqlite)$/i,
  /\.map$/,
];

/** Files that say how the project is built and tested. */
const MANIFESTS =
  /^(package\.json|tsconfig\.json|pyproject\.toml|setup\.py|setup\.cfg|requirements\.txt|go\.mod|Cargo\.toml|Gemfile|pom\.xml|build\.gradle(\.kts)?|Makefile|README(\.md)?|CONTRIBUTING\.md|\.booty\.yml|\.github\/booty\.yml|(vitest|jest|vite)\.config\.[cm]?[jt]s|pytest\.ini|tox\.ini)$/;

export const isNoise = (file: string) => NOISE.some((re) => re.test(file));

export function isTestPath(file: string): boolean {
  return (
    /(^|\/)(test|tests|__tests__|spec|specs)\//.test(file) ||
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) ||
    /(^|\/)test_[^/]+\.py$/.test(file) ||
    /_test\.(py|go|rb|exs?)$/.test(file) ||
    /_spec\.rb$/.test(file) ||
    /Tests?\.(java|kt|cs|swift)$/.test(file)
  );
}

/** `test/foo-bar.test.ts` and `src/foo-bar.ts` share the stem `foo-bar`. */
export function stemOf(file: string): string {
  let base = path.posix.basename(file).toLowerCase();
  base = base.replace(/\.[^.]+$/, '').replace(/\.(test|spec)$/, '');
  return base.replace(/^test_/, '').replace(/_(test|spec)$/, '') || base;
}

export interface RankInput {
  files: string[];
  analysis: Analysis | null;
  /** The issue's sanitised text: paths and words it mentions raise a file's rank. */
  issueText: string;
}

/** Candidate files for the repository context, most relevant first; files of no evident use are left out. */
export function rankFiles({ files, analysis, issueText }: RankInput): string[] {
  const exists = new Set(files.filter((f) => !isNoise(f)));
  const tier = new Map<string, number>();
  const assign = (file: string, t: number) => {
    if (exists.has(file) && (tier.get(file) ?? Number.POSITIVE_INFINITY) > t) tier.set(file, t);
  };

  for (const f of analysis?.filesToChange ?? []) assign(f, 0);
  for (const f of [...(analysis?.filesToRead ?? []), ...(analysis?.testsToAdd ?? [])]) assign(f, 1);
  for (const f of exists) if (mentions(issueText, f)) assign(f, 2);

  const anchors = [...tier.keys()];
  const anchorStems = new Set(anchors.map(stemOf));
  const anchorDirs = new Set(anchors.map((f) => path.posix.dirname(f)));
  for (const f of exists) {
    if (anchorStems.has(stemOf(f))) assign(f, 3);
    else if (anchorDirs.has(path.posix.dirname(f))) assign(f, 4);
  }
  const words = keywords(issueText);
  for (const f of exists) if (words.has(stemOf(f))) assign(f, 5);
  for (const f of exists) if (MANIFESTS.test(f)) assign(f, 6);

  return [...tier.entries()]
    .sort(([a, ta], [b, tb]) => ta - tb || (a < b ? -1 : a > b ? 1 : 0))
    .map(([f]) => f);
}

function mentions(text: string, file: string): boolean {
  if (text.includes(file)) return true;
  const base = path.posix.basename(file);
  return (
    base.includes('.') &&
    base.length > 4 &&
    new RegExp(`(^|[^\\w.-])${escapeRegExp(base)}($|[^\\w-])`).test(text)
  );
}

function keywords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z][a-z0-9_-]{3,}/g) ?? [];
  return new Set(words);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
