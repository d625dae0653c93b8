import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { type CaseBatch, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';
import { GoPackages } from './go-packages.js';

// `go test -json`: one JSON event per line on stdout. Go before 1.24 prints build failures as plain
// text around the events (`# pkg` and the compiler's errors on stderr, `FAIL\tpkg [build failed]`
// on stdout); newer Go reports them as events with `FailedBuild`. Both are read.

interface GoEvent {
  Action?: string;
  Package?: string;
  Test?: string;
  Output?: string;
  Elapsed?: number;
  ImportPath?: string;
  FailedBuild?: string;
}

interface GoTest {
  pkg: string;
  name: string;
  status: TestStatus | null;
  elapsed: number | null;
  output: string[];
}

export interface GoJsonResult extends CaseBatch {
  /** What the tests printed, as `go test -v` would show it. */
  text: string;
  /** How many lines were JSON events: none means the output was not `go test -json`. */
  events: number;
}

const STATUS: Record<string, TestStatus> = { pass: 'passed', fail: 'failed', skip: 'skipped' };
const FRAMING = /^\s*(=== (RUN|PAUSE|CONT|NAME)\s|--- (PASS|FAIL|SKIP): )/;
const BUILD_FAILED = /^FAIL\t(\S+) \[(?:build|setup) failed\]/;

/** A panic's goroutine dump, without the frames of the Go runtime and dependencies. */
function ownFrames(lines: string[], cwd: string): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const at = /^\t(\S+\.(?:go|s)):\d+/.exec(line);
    if (at && !at[1]!.startsWith(`${cwd}/`)) {
      out.pop(); // the function line this location belongs to
      continue;
    }
    out.push(line);
  }
  return out;
}

export function parseGoJson(output: string, cwd: string): GoJsonResult {
  const packages = new GoPackages(cwd);
  const tests = new Map<string, GoTest>();
  const packageOutput = new Map<string, string[]>();
  const buildOutput = new Map<string, string[]>();
  const failedPackages = new Set<string>();
  const failedBuilds = new Set<string>();
  let text = '';
  let events = 0;
  let block: string[] | null = null;
  let last: GoTest | null = null;

  const push = (map: Map<string, string[]>, key: string, line: string) => {
    if (!map.has(key)) map.set(key, []);
    map.get(key)!.push(line);
  };

  // A report's events never hold a raw CR (JSON escapes it): only text around them may.
  const lines = (output.includes('\r') ? output.replace(/\r\n?/g, '\n') : output).split('\n');
  for (const line of lines) {
    let event: GoEvent | null = null;
    if (line.startsWith('{')) {
      try {
        event = JSON.parse(line) as GoEvent;
      } catch {
        event = null;
      }
    }
    if (!event) {
      if (line) text += `${line}\n`;
      const header = /^# (\S+)/.exec(line);
      const failed = BUILD_FAILED.exec(line);
      if (header) {
        block = [];
        buildOutput.set(header[1]!, block);
      } else if (failed) {
        failedBuilds.add(failed[1]!);
        block = null;
      } else if (block && line && !/^(=== |\s*--- |PASS|FAIL|ok )/.test(line)) {
        block.push(line);
      }
      continue;
    }
    events++;
    block = null;
    const pkg = event.Package ?? event.ImportPath?.split(' ')[0] ?? '';
    const out = event.Output ?? '';
    if (out) text += out;
    if (event.Action === 'build-output') push(buildOutput, pkg, out.trimEnd());
    const failed = out.startsWith('FAIL\t') ? BUILD_FAILED.exec(out) : null;
    if (failed) failedBuilds.add(failed[1]!);
    if (!event.Test) {
      if (event.Action === 'output') push(packageOutput, pkg, out.trimEnd());
      if (event.Action === 'fail') failedPackages.add(pkg);
      if (event.FailedBuild) failedBuilds.add(pkg);
      continue;
    }
    // Events come in runs for one test: the last one found is looked up first.
    let test: GoTest | null = last !== null && last.pkg === pkg && last.name === event.Test ? last : null;
    if (!test) {
      const key = `${pkg}\0${event.Test}`;
      test = tests.get(key) ?? null;
      if (!test) {
        test = { pkg, name: event.Test, status: null, elapsed: null, output: [] };
        tests.set(key, test);
      }
      last = test;
    }
    if (event.Action === 'output') test.output.push(out.endsWith('\n') ? out.slice(0, -1) : out);
    const status = STATUS[event.Action ?? ''];
    if (status) {
      test.status = status;
      test.elapsed = typeof event.Elapsed === 'number' ? event.Elapsed * 1000 : null;
    }
  }

  const all = [...tests.values()];
  const childrenOf = (t: GoTest) => all.filter((o) => o.pkg === t.pkg && o.name.startsWith(`${t.name}/`));
  const cases: TestCase[] = [];
  for (const t of all) {
    const children = childrenOf(t);
    // A parent counts through its subtests, unless it failed with every subtest passing.
    if (children.length && !(t.status === 'failed' && !children.some((c) => c.status === 'failed'))) continue;
    // A test that never finished: the binary panicked or timed out around it.
    const status: TestStatus = t.status ?? 'errored';
    const name = t.name.split('/')[0]!;
    const lines = ownFrames(
      t.output.filter((l) => !FRAMING.test(l)),
      cwd,
    );
    cases.push({
      id: `${t.pkg} > ${t.name}`,
      file: packages.fileOf(t.pkg, name),
      name,
      status,
      durationMs: t.elapsed,
      message: status === 'failed' || status === 'errored' ? failureMessage(lines.join('\n'), cwd) : null,
    });
  }

  const loadErrors: CaseBatch['loadErrors'] = [];
  const where = (pkg: string) => packages.dir(pkg) ?? pkg;
  for (const pkg of failedBuilds) {
    const lines = [...buildOutput.entries()]
      .filter(([k]) => k === pkg || k.startsWith(`${pkg} `))
      .flatMap(([, v]) => v);
    loadErrors.push({
      file: where(pkg),
      message: failureMessage(lines.join('\n'), cwd) ?? `${pkg} did not build`,
    });
  }
  for (const pkg of failedPackages) {
    if (failedBuilds.has(pkg) || cases.some((c) => c.id.startsWith(`${pkg} > `) && c.status !== 'passed'))
      continue;
    // The package failed without a failing test: TestMain, init, or a crash between tests.
    const lines = (packageOutput.get(pkg) ?? []).filter((l) => !/^(FAIL|ok)\b/.test(l));
    loadErrors.push({ file: where(pkg), message: failureMessage(lines.join('\n'), cwd) ?? `${pkg} failed` });
  }
  return { cases: uniqueIds(cases), loadErrors, text, events };
}
