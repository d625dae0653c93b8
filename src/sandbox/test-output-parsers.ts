// Names of failing tests, read from what the test runner printed. One parser per format; every
// parser runs over the output and the names are merged, so a repository whose `npm test` runs
// two tools is still covered. Ids are stable across runs (no durations, no line numbers), so a
// later run can be compared with the baseline.
//
//   vitest, jest, node:test   `<file> > <suite> > <test>`
//   pytest                    the node id, `<file>::<Class>::<test>[param]`
//   go test                   `<package> > <Test>/<subtest>`
//   cargo test                `<module path>`

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

const relative = (file: string, cwd?: string) =>
  cwd && file.startsWith(`${cwd.replace(/\/+$/, '')}/`)
    ? file.slice(cwd.replace(/\/+$/, '').length + 1)
    : file;

const join = (...parts: string[]) => parts.filter(Boolean).join(' > ');

/** vitest: ` FAIL  test/a.test.ts > suite > name`, or ` FAIL  test/a.test.ts [ test/a.test.ts ]`. */
export function parseVitest(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    // Two spaces after FAIL: jest's file headers have one.
    const m = /^\s*FAIL {2}(\S+\.\w+)(?:\s+>\s+(.+?))?(?:\s+\[ .+ \])?\s*$/.exec(line);
    if (m) out.push(join(m[1]!, ...(m[2]?.split(/\s+>\s+/) ?? [])));
  }
  return out;
}

/** jest: `FAIL test/a.test.js` headers, then `  ● suite › name` per failure. */
export function parseJest(lines: string[]): string[] {
  const out: string[] = [];
  let file: string | null = null;
  for (const line of lines) {
    const header = /^(FAIL|PASS) (\S+)/.exec(line);
    if (header) {
      file = header[2]!;
      continue;
    }
    const bullet = /^ {2}● (.+)$/.exec(line);
    if (!bullet || !file) continue;
    const title = bullet[1]!.trim();
    if (title === 'Console') continue;
    out.push(title === 'Test suite failed to run' ? file : join(file, ...title.split(' › ')));
  }
  return out;
}

/** node:test TAP: `not ok` lines nested by four spaces, with a YAML block giving the location. */
export function parseNodeTap(lines: string[], cwd?: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const sub = /^( *)# Subtest: (.+)$/.exec(line);
    if (sub) {
      stack.length = sub[1]!.length / 4;
      stack.push(sub[2]!);
      continue;
    }
    const fail = /^( *)not ok \d+ - (.+?)(?: # .*)?$/.exec(line);
    if (!fail) continue;
    const depth = fail[1]!.length / 4;
    let location: string | null = null;
    let suite = false;
    for (let j = i + 1; j < lines.length && !/^\s*\.\.\.$/.test(lines[j]!); j++) {
      const meta = lines[j]!.trim();
      if (meta === "type: 'suite'" || meta === "failureType: 'subtestsFailed'") suite = true;
      const loc = /^location: '(.+?):\d+:\d+'$/.exec(meta);
      if (loc) location = loc[1]!;
    }
    const names = [...stack.slice(0, depth), fail[2]!];
    stack.length = depth;
    if (!suite) out.push(join(location ? relative(location, cwd) : '', ...names));
  }
  return out;
}

/** node:test spec: the `✖` tree gives suite paths, the `failing tests:` list gives files. */
export function parseNodeSpec(lines: string[], cwd?: string): string[] {
  const summary = lines.findIndex((l) => /^✖ failing tests:\s*$/.test(l));
  const tree = summary >= 0 ? lines.slice(0, summary) : lines;
  const suites: { indent: number; name: string }[] = [];
  const leaves: string[][] = [];
  for (const line of tree) {
    const m = /^( *)([▶✖]) (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
    if (!m) continue;
    const indent = m[1]!.length;
    while (suites.length && suites.at(-1)!.indent > indent) suites.pop();
    if (m[2] === '▶') {
      suites.push({ indent, name: m[3]! });
      continue;
    }
    const top = suites.at(-1);
    if (top && top.indent === indent && top.name === m[3]) {
      suites.pop(); // a suite's closing line
      continue;
    }
    leaves.push([...suites.filter((s) => s.indent < indent).map((s) => s.name), m[3]!]);
  }
  const files: string[] = [];
  if (summary >= 0) {
    for (const line of lines.slice(summary + 1)) {
      const at = /^test at (.+?):\d+:\d+$/.exec(line);
      if (at) files.push(relative(at[1]!, cwd));
    }
  }
  const zip = files.length === leaves.length;
  return leaves.map((names, i) => join(zip ? files[i]! : '', ...names));
}

/** pytest: the short summary's `FAILED`/`ERROR` lines, else `-v` lines ending in FAILED. */
export function parsePytest(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const summary = /^(?:FAILED|ERROR) (\S+?)(?: - .*)?$/.exec(line);
    if (summary && /\.py\b/.test(summary[1]!)) out.push(summary[1]!);
    const verbose = /^(\S+\.py::\S+) (?:FAILED|ERROR)\b/.exec(line);
    if (verbose) out.push(verbose[1]!);
  }
  return out;
}

/** go test: `--- FAIL: Name` lines, owned by the next `FAIL\t<package>` line. */
export function parseGo(lines: string[]): string[] {
  const out: string[] = [];
  let pending: string[] = [];
  for (const line of lines) {
    const test = /^\s*--- FAIL: (\S+) \(/.exec(line);
    if (test) {
      pending.push(test[1]!);
      continue;
    }
    const pkg = /^FAIL\t(\S+)(?:\t| \[(build|setup) failed\])/.exec(line);
    if (pkg) {
      if (pkg[2]) out.push(`${pkg[1]} [${pkg[2]} failed]`);
      // A parent fails with its subtests: report only the leaves.
      const leaves = pending.filter((t) => !pending.some((o) => o.startsWith(`${t}/`)));
      for (const t of leaves) out.push(join(pkg[1]!, t));
      // A package that failed without naming a test (a panic in TestMain, a timeout).
      if (!pkg[2] && leaves.length === 0) out.push(pkg[1]!);
      pending = [];
    } else if (/^ok\s+\S+/.test(line)) {
      pending = [];
    }
  }
  return out;
}

/** cargo test: `test path::name ... FAILED`. */
export function parseCargo(lines: string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const m = /^test (\S+) \.\.\. FAILED$/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}

export function parseFailingTests(output: string, cwd?: string): string[] {
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  const all = [
    ...parseVitest(lines),
    ...parseJest(lines),
    ...parseNodeTap(lines, cwd),
    ...parseNodeSpec(lines, cwd),
    ...parsePytest(lines),
    ...parseGo(lines),
    ...parseCargo(lines),
  ];
  return [...new Set(all)].sort();
}
