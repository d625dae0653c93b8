import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestCase, TestStatus } from '../../events/effect-results.js';
import { stripAnsi } from './ansi.js';
import { type CaseBatch, uniqueIds } from './case-list.js';
import { failureMessage } from './case-message.js';

// cargo test's libtest lines. Stable Rust has no machine-readable test output, but libtest's text
// is regular enough to be one:
//      Running unittests src/lib.rs (target/debug/deps/durations-9891664a36a7e744)
//   test tests::parses_minutes ... FAILED
//   ---- tests::parses_minutes stdout ----      (the failure's message, after the run)
//      Doc-tests durations
//   test src/lib.rs - parse (line 3) ... ok
// Ids are `target > path`: `src/lib.rs > tests::parses_minutes`, `Doc-tests durations > src/lib.rs - parse`.

const RUNNING = /^\s*Running (?:unittests )?(\S+) \((.+)\)\s*$/;
const DOC_TESTS = /^\s*Doc-tests (\S+)\s*$/;
const TEST_LINE = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/;
const STDOUT_HEADER = /^---- (.+?) stdout ----$/;

const STATUS: Record<string, TestStatus> = { ok: 'passed', FAILED: 'failed', ignored: 'skipped' };

/** Workspace members by package name, found by their Cargo.toml (two levels deep is the norm). */
function workspaceMembers(cwd: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string, depth: number) => {
    const manifest = path.join(cwd, dir, 'Cargo.toml');
    if (dir && existsSync(manifest)) {
      const name = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/.exec(readFileSync(manifest, 'utf8'))?.[1];
      if (name) out.set(name.replaceAll('-', '_'), dir);
    }
    if (depth === 0) return;
    let entries: string[] = [];
    try {
      entries = readdirSync(path.join(cwd, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'target')
        .map((e) => e.name);
    } catch {
      return;
    }
    for (const e of entries) visit(dir ? `${dir}/${e}` : e, depth - 1);
  };
  visit('', 3);
  return out;
}

export class CargoTargets {
  private members: Map<string, string> | null = null;
  constructor(private readonly cwd: string) {}

  /** `src/lib.rs` as the repository names it: inside a workspace member, cargo prints it relative
   * to the member; the binary's name (`a-27b4…` for crate `a`) says which one. */
  resolve(target: string, binary: string): string {
    if (existsSync(path.join(this.cwd, target))) return target;
    this.members ??= workspaceMembers(this.cwd);
    const crate = path.basename(binary).replace(/-[0-9a-f]{16}$/, '');
    const named = this.members.get(crate);
    if (named && existsSync(path.join(this.cwd, named, target))) return `${named}/${target}`;
    const holders = [...this.members.values()].filter((dir) => existsSync(path.join(this.cwd, dir, target)));
    return holders.length === 1 ? `${holders[0]}/${target}` : target;
  }

  /** The module file a unit test lives in: `units::tests::x` under src/lib.rs is src/units.rs. */
  moduleFile(target: string, testPath: string): string {
    let dir = path.posix.dirname(target);
    let file = target;
    for (const segment of testPath.split('::').slice(0, -1)) {
      const flat = `${dir}/${segment}.rs`;
      const nested = `${dir}/${segment}/mod.rs`;
      if (existsSync(path.join(this.cwd, flat))) file = flat;
      else if (existsSync(path.join(this.cwd, nested))) file = nested;
      else break;
      dir = `${dir}/${segment}`;
    }
    return file;
  }
}

export function parseLibtest(output: string, cwd: string): CaseBatch {
  const targets = new CargoTargets(cwd);
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  const cases: TestCase[] = [];
  /** Each case's key into `messages`, which fill in only once the failures section is read. */
  const keys: string[] = [];
  const loadErrors: CaseBatch['loadErrors'] = [];
  const messages = new Map<string, string[]>();
  let target: { id: string; file: string; unit: boolean; doc: boolean } | null = null;
  let capture: string[] | null = null;
  let compile: { file: string | null; lines: string[] } | null = null;

  for (const line of lines) {
    const running = RUNNING.exec(line);
    const doc = DOC_TESTS.exec(line);
    if (running || doc) {
      capture = null;
      if (running) {
        const file = targets.resolve(running[1]!, running[2]!);
        target = { id: file, file, unit: /Running unittests /.test(line), doc: false };
      } else {
        target = { id: `Doc-tests ${doc![1]}`, file: '', unit: false, doc: true };
      }
      continue;
    }
    const header = STDOUT_HEADER.exec(line);
    if (header && target) {
      capture = [];
      messages.set(`${target.id}\0${header[1]}`, capture);
      continue;
    }
    if (capture && (/^failures:$/.test(line) || /^test result: /.test(line))) capture = null;
    if (capture) {
      capture.push(line);
      continue;
    }
    const test = TEST_LINE.exec(line);
    if (test && target) {
      const status = STATUS[test[2]!]!;
      // Doc tests are named `src/lib.rs - parse (line 3)`: the line number is not part of the id.
      const testPath = target.doc ? test[1]!.replace(/ \(line \d+\)$/, '') : test[1]!;
      const item = target.doc ? (testPath.split(' - ')[1] ?? testPath) : testPath;
      cases.push({
        id: `${target.id} > ${testPath}`,
        file: target.doc
          ? (testPath.split(' - ')[0] ?? null)
          : target.unit
            ? targets.moduleFile(target.file, testPath)
            : target.file,
        name: item.split('::').at(-1)!,
        status,
        durationMs: null,
        message: null,
      });
      keys.push(`${target.id}\0${test[1]}`);
      continue;
    }
    // Compiler errors: from the first `error` line to `error: could not compile`.
    if (/^error(\[E\d+\])?: /.test(line) && !/^error: (test failed|\d+ targets? failed)/.test(line)) {
      if (/^error: could not compile/.test(line)) {
        if (compile)
          loadErrors.push({ file: compile.file ?? 'Cargo.toml', message: compile.lines.join('\n') });
        compile = null;
        continue;
      }
      compile ??= { file: null, lines: [] };
    }
    if (compile) {
      compile.lines.push(line);
      compile.file ??= /^\s*--> (.+?):\d+:\d+$/.exec(line)?.[1] ?? null;
    }
  }

  cases.forEach((c, i) => {
    if (c.status === 'failed') c.message = failureMessage((messages.get(keys[i]!) ?? []).join('\n'), cwd);
  });
  return {
    cases: uniqueIds(cases),
    loadErrors: loadErrors.map((e) => ({
      ...e,
      message: failureMessage(e.message, cwd) ?? 'could not compile',
    })),
  };
}
