// What a quality command (a linter, a type checker) reported at a file and line, as `file: message`.
// The line and column are dropped: a change that adds lines above an old finding moves it, and it
// must still count as the same finding. These shapes cover most tools:
//   path:line[:col][:] message     gcc, go vet, flake8, ruff, mypy, biome, eslint's unix/compact format
//   path(line,col): message        tsc
//   path                           eslint's default (stylish): the file on a line of its own,
//     line:col  severity  message  then one indented line per finding
//   error[code]: message           rustc and clippy: the message first,
//    --> path:line:col             then where, on the next line
//   [warn] path                    prettier --check: a file that is not formatted

const MESSAGE_CHARS = 300;
const MAX_FINDINGS = 1_000;

/** A list as long as the cap may have lost findings past it (also read from runs logged before `incomplete`). */
export const findingsCapped = (findings: readonly string[]) => findings.length >= MAX_FINDINGS;

// A path: no spaces, and a folder or an extension, so "Error: 3" or "npm error code" are not files.
// Each folder part is read one way only: `(?:[^\s:()]+\/)*` (a part may hold `/`) split a path in
// every way there is, exponential in its slashes; `[^\s:()]+\/[^\s:()]+` reread it from each.
const PATH = String.raw`(?:\.\/)?(?:[^\s:()]+\/)?[^\s:()/]*[^\s:()]\.[A-Za-z0-9]{1,8}|(?:\.\/)?[^\s:()][^\s:()/]*\/[^\s:()]+`;
const COLON = new RegExp(String.raw`^\s*(${PATH}):(\d+)(?::\d+)?:?\s+(\S.*)$`);
const PARENS = new RegExp(String.raw`^\s*(${PATH})\((\d+),\d+\):\s*(\S.*)$`);
const LONE_PATH = new RegExp(`^(${PATH})$`);
const STYLISH = /^\s+\d+:\d+\s+((?:error|warning)\s+\S.*)$/;
const RUST_MESSAGE = /^((?:error|warning)(?:\[\w+\])?: \S.*)$/;
const RUST_WHERE = new RegExp(String.raw`^\s*--> (${PATH}):\d+:\d+$`);
const PRETTIER = new RegExp(String.raw`^\[warn\] (${PATH})$`);

/** Spaces collapsed and the decoration some tools draw after a finding (biome's ━━━) dropped. */
const message = (text: string) =>
  text
    .replace(/[━─═]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MESSAGE_CHARS);

const file = (p: string) => p.replace(/^\.\//, '');

/** Every finding in the output, in order (a finding twice is listed twice). */
export function parseFindings(output: string): string[] {
  const findings: string[] = [];
  let current: string | null = null;
  let rustMessage: string | null = null;
  for (const line of output.split('\n')) {
    if (findings.length >= MAX_FINDINGS) break;
    const stylish = current ? STYLISH.exec(line) : null;
    if (stylish) {
      findings.push(`${current}: ${message(stylish[1]!)}`);
      continue;
    }
    const where = rustMessage ? RUST_WHERE.exec(line) : null;
    if (where) {
      findings.push(`${file(where[1]!)}: ${message(rustMessage!)}`);
      rustMessage = null;
      continue;
    }
    rustMessage = RUST_MESSAGE.exec(line)?.[1] ?? null;
    const unformatted = PRETTIER.exec(line);
    if (unformatted) {
      findings.push(`${file(unformatted[1]!)}: not formatted`);
      continue;
    }
    const located = COLON.exec(line) ?? PARENS.exec(line);
    if (located) {
      findings.push(`${file(located[1]!)}: ${message(located[3]!)}`);
      current = null;
      continue;
    }
    const lone = LONE_PATH.exec(line.trim());
    if (lone) current = file(lone[1]!);
    else if (line.trim() === '') current = null;
  }
  return findings;
}

/** The findings in `after` that `before` does not hold, counting repeats (two where one was is one new). */
export function newFindings(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const f of before) left.set(f, (left.get(f) ?? 0) + 1);
  const added: string[] = [];
  for (const f of after) {
    const n = left.get(f) ?? 0;
    if (n > 0) left.set(f, n - 1);
    else added.push(f);
  }
  return added;
}
