import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Resolution, type Route, resolveCommand } from './command-routes.js';
import type { Invocation, Runner } from './command-shape.js';
import { writeJasmineReporter } from './jasmine-reporter.js';
import { writeMinitestPlugin } from './minitest-plugin.js';
import { writeNodeReporter } from './node-tap-reporter.js';
import { expandReportGlob, reachableWithoutLinks } from './report-globs.js';
import { shellQuote } from './shell-words.js';

// How to make a repository's test command leave a machine-readable report behind. booty adds the
// runner's own reporter flags when it recognises the command and the command is simple enough to
// change safely; otherwise the command runs as written and its text is read instead. Runners
// that take their reporter from the environment (pytest, RSpec, minitest, Playwright) get it
// always, whatever starts them.

export interface ReportFile {
  path: string;
  format: 'junit' | 'jest-json' | 'mocha-json' | 'tap' | 'rspec-json' | 'trx' | 'auto';
  /** `path` is a directory: every report in it (one per process or project: minitest, dotnet). */
  directory?: boolean;
}

export interface ReporterPlan {
  /** Which runner booty recognised in the command, or null. */
  runner: Runner | null;
  /** The runner's own arguments as the command (or the script it calls) gives them. */
  args: string[];
  /** The command to run: the original with reporter flags added where that is safe. */
  command: string;
  /** Extra environment for the run (e.g. PYTEST_ADDOPTS). */
  env: Record<string, string>;
  /** Report files to read after the run (absolute paths; `auto` ones are globs, expanded when read). */
  reports: ReportFile[];
  /** When the command's stdout itself is the structured output (go test -json, TAP). */
  stdout: 'go-json' | 'tap' | null;
}

export interface PlanInput {
  command: string;
  /** The repository's work tree, to read package.json scripts. */
  cwd: string;
  /** An existing, empty directory the command may write (absolute); injected reports go here. */
  reportDir: string;
  /** Globs (repository-relative) from booty.yml `test.report`: reports the repository writes itself. */
  configured: string[];
}

/** One argument to add: a plain flag, or a flag whose value is a path (quoted for the shell). */
type Arg = string | { flag: string; path: string };
const shellArgs = (args: Arg[]) =>
  args.map((a) => (typeof a === 'string' ? a : `${a.flag}${shellQuote(a.path)}`)).join(' ');

/** What to add for one recognised runner; null when the command already chose its own reporter. */
interface Injection {
  /** Flags that go at the end of the runner's arguments. */
  append?: Arg[];
  /** Flags that must come right after the anchor word (node's before its files, go's before -args). */
  afterAnchor?: Arg[];
  /** What the flags make the runner write; read only when the flags could be added. */
  report?: ReportFile;
  stdout?: 'go-json' | 'tap';
  /** What the runner gives whatever starts it: read on every route. */
  always?: { report?: ReportFile; stdout?: 'go-json' | 'tap'; env?: Record<string, string> };
}

const has = (args: string[], ...flags: string[]) =>
  args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`) || a.startsWith(`${f}.`)));

/** The value of `--flag=v` or `--flag v`. */
const flagValue = (args: string[], flag: string): string | undefined => {
  const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (i < 0) return undefined;
  return args[i] === flag ? args[i + 1] : args[i]!.slice(flag.length + 1);
};

async function injectionFor(inv: Invocation, reportDir: string): Promise<Injection | null> {
  const out = (name: string) => path.join(reportDir, name);
  const junit = (name: string): ReportFile => ({ path: out(name), format: 'junit' });
  switch (inv.runner) {
    case 'vitest': {
      if (has(inv.args, '--outputFile')) return null;
      const xml = out('vitest.xml');
      // An explicit --reporter replaces the default one, so keep the people-readable output too.
      const keep = has(inv.args, '--reporter') ? [] : ['--reporter=default'];
      return {
        append: [...keep, '--reporter=junit', { flag: '--outputFile.junit=', path: xml }],
        report: { path: xml, format: 'junit' },
      };
    }
    case 'jest': {
      if (has(inv.args, '--json', '--outputFile')) return null;
      const json = out('jest.json');
      return {
        append: ['--json', { flag: '--outputFile=', path: json }, '--testLocationInResults'],
        report: { path: json, format: 'jest-json' },
      };
    }
    case 'mocha': {
      // mocha runs one reporter. `json` (with `output`, mocha >= 9) names each test's file and
      // keeps passes, pending tests and hook failures apart, with the error's message and stack;
      // `xunit` has the file too but folds hook failures into failures. Its cost: while it writes
      // the file, mocha prints no spec output, so the model sees the report's messages instead.
      if (has(inv.args, '--reporter', '-R', '--reporter-option', '--reporter-options', '-O')) return null;
      const json = out('mocha.json');
      return {
        append: ['--reporter=json', '--reporter-option', { flag: 'output=', path: json }],
        report: { path: json, format: 'mocha-json' },
      };
    }
    case 'node-test': {
      if (has(inv.args, '--test-reporter', '--test-reporter-destination')) return null;
      const tap = out('node.tap');
      const reporter = await writeNodeReporter(reportDir);
      return {
        afterAnchor: [
          { flag: '--test-reporter=', path: reporter },
          { flag: '--test-reporter-destination=', path: tap },
          '--test-reporter=spec',
          '--test-reporter-destination=stdout',
        ],
        report: { path: tap, format: 'tap' },
      };
    }
    case 'go':
      return has(inv.args, '-json', '--json')
        ? { always: { stdout: 'go-json' } }
        : { afterAnchor: ['-json'], stdout: 'go-json' };
    case 'pytest': {
      // pytest reads PYTEST_ADDOPTS before its command line, so a --junitxml there wins: read it.
      const i = inv.args.findIndex((a) => /^--junit-?xml(=|$)/.test(a));
      if (i < 0) return {};
      const given = inv.args[i]!.includes('=') ? inv.args[i]!.split('=').slice(1).join('=') : inv.args[i + 1];
      return given ? { always: { report: { path: given, format: 'junit' } } } : {};
    }
    case 'ava':
      // ava's TAP reporter replaces its default one; it names each test and its failure.
      return has(inv.args, '--tap', '-t')
        ? { always: { stdout: 'tap' } }
        : { append: ['--tap'], stdout: 'tap' };
    case 'tape':
      return { always: { stdout: 'tap' } }; // tape prints TAP and nothing else
    case 'node-tap':
      // TAP=1 makes node-tap (16 and later) print raw TAP whatever its reporter setting.
      return { always: { stdout: 'tap', env: { TAP: '1' } } };
    case 'jasmine': {
      if (has(inv.args, '--reporter')) return null;
      const xml = out('jasmine.xml');
      const reporter = await writeJasmineReporter(reportDir, xml);
      return { append: [{ flag: '--reporter=', path: reporter }], report: { path: xml, format: 'junit' } };
    }
    case 'bun': {
      if (has(inv.args, '--reporter', '--reporter-outfile')) return null;
      const xml = out('bun.xml');
      // bun keeps its own output beside the JUnit file.
      return {
        append: ['--reporter=junit', { flag: '--reporter-outfile=', path: xml }],
        report: junit('bun.xml'),
      };
    }
    case 'deno': {
      const given = flagValue(inv.args, '--junit-path');
      if (given) return { always: { report: { path: given, format: 'junit' } } };
      // --junit-path writes JUnit beside the pretty reporter; before any `--` (the tests' arguments).
      const flag = [{ flag: '--junit-path=', path: out('deno.xml') }];
      return inv.args.includes('--')
        ? { afterAnchor: flag, report: junit('deno.xml') }
        : { append: flag, report: junit('deno.xml') };
    }
    case 'phpunit': {
      const given = flagValue(inv.args, '--log-junit');
      if (given) return { always: { report: { path: given, format: 'junit' } } };
      return {
        append: ['--log-junit', { flag: '', path: out('phpunit.xml') }],
        report: junit('phpunit.xml'),
      };
    }
    case 'ctest': {
      const given = flagValue(inv.args, '--output-junit');
      if (given) return {}; // relative to ctest's build directory, which booty does not know
      return { append: ['--output-junit', { flag: '', path: out('ctest.xml') }], report: junit('ctest.xml') };
    }
    case 'maven':
      return { always: { report: { path: '**/target/surefire-reports/TEST-*.xml', format: 'junit' } } };
    case 'gradle':
      return { always: { report: { path: '**/build/test-results/**/*.xml', format: 'junit' } } };
    case 'dotnet': {
      // The TRX logger comes with dotnet test; one file per test project, in the folder given.
      if (has(inv.args, '--logger', '-l', '--results-directory')) return null;
      const dir = out('dotnet');
      return {
        append: ['--logger', 'trx', { flag: '--results-directory ', path: dir }],
        report: { path: dir, format: 'trx', directory: true },
      };
    }
    case 'cargo': // libtest's text is the structured output
    case 'uvu': // no reporter: its per-file lines are read
    case 'rspec': // SPEC_OPTS, always
    case 'minitest': // the RUBYLIB plugin, always
    case 'playwright': // PW_TEST_REPORTER, always
      return {};
  }
}

/** `node --test` behind a package script: node's flags must precede the files, so NODE_OPTIONS
 * carries them (node accepts --test-reporter there; checked with `npm test` on Node 20.20). */
function nodeOptions(args: Arg[]): string {
  return args
    .map((a) => (typeof a === 'string' ? a : `${a.flag}${a.path}`))
    .map((a) => (/[\s"\\]/.test(a) ? `"${a.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"` : a))
    .join(' ');
}

/** Reporters that come through the environment, for every command: a runner started by a tool
 * booty cannot see into (make, tox, rake, a script) still writes them. */
async function environmentReporters(
  reportDir: string,
): Promise<{ env: Record<string, string>; reports: ReportFile[] }> {
  const pytestXml = path.join(reportDir, 'pytest.xml');
  const rspecJson = path.join(reportDir, 'rspec.json');
  const playwrightXml = path.join(reportDir, 'playwright.xml');
  const minitest = await writeMinitestPlugin(reportDir);
  return {
    env: {
      // xunit1 is the family that writes each case's `file` and `line`.
      PYTEST_ADDOPTS: `--junitxml=${shellQuote(pytestXml)} -o junit_family=xunit1`,
      // RSpec's options from SPEC_OPTS replace the .rspec file's formatters: keep one for people.
      SPEC_OPTS: `--format progress --format json --out ${shellQuote(rspecJson)}`,
      RUBYLIB: minitest.lib,
      BOOTY_MINITEST_DIR: minitest.reports,
      // Playwright adds the reporter PW_TEST_REPORTER names to the configured ones.
      PW_TEST_REPORTER: 'junit',
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: playwrightXml,
    },
    reports: [
      { path: pytestXml, format: 'junit' },
      { path: rspecJson, format: 'rspec-json' },
      { path: minitest.reports, format: 'junit', directory: true },
      { path: playwrightXml, format: 'junit' },
    ],
  };
}

/** The command with the injection's flags where the route lets booty put them; null where it cannot. */
function addFlags(command: string, inv: Invocation, route: Route, add: Injection): string | null {
  const after = add.afterAnchor ?? [];
  const append = add.append ?? [];
  if (after.length === 0 && append.length === 0) return null;
  if (route.kind === 'direct') {
    let out = command;
    if (append.length) out = `${out.slice(0, route.end)} ${shellArgs(append)}${out.slice(route.end)}`;
    if (after.length) {
      const at = inv.anchor.end;
      out = `${out.slice(0, at)} ${shellArgs(after)}${out.slice(at)}`;
    }
    return out;
  }
  if (route.kind === 'script' && after.length === 0) {
    return `${command.slice(0, route.end)}${route.separator}${shellArgs(append)}${command.slice(route.end)}`;
  }
  if (route.kind === 'make-args' && after.length === 0) {
    // make puts ARGS into the recipe's shell line as it is: quoted once for make's own command line.
    return `${command.slice(0, route.end)} ARGS=${shellQuote(shellArgs(append))}${command.slice(route.end)}`;
  }
  return null;
}

export async function planReporters(input: PlanInput): Promise<ReporterPlan> {
  const { cwd, reportDir } = input;
  const command = input.command.trim();
  const always = await environmentReporters(reportDir);
  const plan: ReporterPlan = { runner: null, args: [], command, env: always.env, reports: [], stdout: null };
  const configured = input.configured.map(
    (glob): ReportFile => ({ path: path.join(cwd, glob), format: 'auto' }),
  );

  const found: Resolution | null = await resolveCommand(command, cwd);
  const add = found ? await injectionFor(found.invocation, reportDir) : null;
  if (found) {
    plan.runner = found.invocation.runner;
    plan.args = found.invocation.args;
  }
  if (found && add) {
    const resolve = (r: ReportFile): ReportFile => ({ ...r, path: path.resolve(cwd, r.path) });
    const changed = addFlags(command, found.invocation, found.route, add);
    if (changed !== null) {
      plan.command = changed;
      if (add.report) plan.reports.push(resolve(add.report));
      if (add.stdout) plan.stdout = add.stdout;
    } else if (add.afterAnchor && found.invocation.runner === 'node-test') {
      plan.env.NODE_OPTIONS = nodeOptions(add.afterAnchor);
      if (add.report) plan.reports.push(add.report);
    }
    // `go test` behind a script cannot be given -json from outside: its text is read instead.
    if (add.always?.report) {
      const r = add.always.report;
      plan.reports.push(
        r.path.includes('*') ? { ...r, path: path.join(cwd, r.path), format: 'auto' } : resolve(r),
      );
    }
    if (add.always?.stdout) plan.stdout = add.always.stdout;
    Object.assign(plan.env, add.always?.env);
  }
  plan.reports.push(...always.reports, ...configured);
  return plan;
}

/** Where reports may be read and deleted when the caller does not say: the work tree, and the
 * folders booty put its own reports in. */
export const defaultRoots = (plan: ReporterPlan, cwd: string): string[] => [
  cwd,
  ...plan.reports.filter((r) => r.format !== 'auto').map((r) => path.dirname(r.path)),
];

/** The files a report stands for now: a glob's matches, a directory's `.xml` files, or the file. */
export async function reportFiles(report: ReportFile, cwd: string): Promise<string[]> {
  if (report.format === 'auto') return expandReportGlob(cwd, path.relative(cwd, report.path));
  if (report.directory) {
    const names = await readdir(report.path).catch(() => [] as string[]);
    return names
      .filter((n) => n.endsWith('.xml'))
      .sort()
      .map((n) => path.join(report.path, n));
  }
  return [report.path];
}

/** Deletes what an earlier run may have left: injected reports and the configured globs' matches. */
export async function clearReports(
  plan: ReporterPlan,
  cwd: string,
  roots: readonly string[] = defaultRoots(plan, cwd),
): Promise<void> {
  for (const report of plan.reports) {
    // Never through a link a test planted: that would delete files outside the job.
    for (const file of await reportFiles(report, cwd)) {
      if (await reachableWithoutLinks(file, roots)) await rm(file, { force: true });
    }
  }
}
