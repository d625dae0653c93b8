import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Invocation, type Runner, recogniseRunner, recogniseScriptCall } from './command-shape.js';
import { writeNodeReporter } from './node-tap-reporter.js';
import { expandReportGlob, reachableWithoutLinks } from './report-globs.js';
import { shellQuote, simpleCommandWords } from './shell-words.js';

// How to make a repository's test command leave a machine-readable report behind. booty adds the
// runner's own reporter flags when it recognises the command and the command is simple enough to
// change safely; otherwise the command runs as written and its text is read instead.

export interface ReportFile {
  path: string;
  format: 'junit' | 'jest-json' | 'mocha-json' | 'tap' | 'auto';
}

export interface ReporterPlan {
  /** Which runner booty recognised in the command, or null. */
  runner: Runner | null;
  /** The command to run: the original with reporter flags added where that is safe. */
  command: string;
  /** Extra environment for the run (e.g. PYTEST_ADDOPTS). */
  env: Record<string, string>;
  /** Report files to read after the run (absolute paths; `auto` ones are globs, expanded when read). */
  reports: ReportFile[];
  /** When the command's stdout itself is the structured output (go test -json). */
  stdout: 'go-json' | null;
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
  report?: ReportFile;
  stdout?: 'go-json';
}

const has = (args: string[], ...flags: string[]) =>
  args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`) || a.startsWith(`${f}.`)));

async function injectionFor(inv: Invocation, reportDir: string): Promise<Injection | null> {
  const out = (name: string) => path.join(reportDir, name);
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
        ? { stdout: 'go-json' }
        : { afterAnchor: ['-json'], stdout: 'go-json' };
    case 'pytest': {
      // pytest reads PYTEST_ADDOPTS before its command line, so a --junitxml there wins: read it.
      const i = inv.args.findIndex((a) => /^--junit-?xml(=|$)/.test(a));
      if (i < 0) return {};
      const given = inv.args[i]!.includes('=') ? inv.args[i]!.split('=').slice(1).join('=') : inv.args[i + 1];
      return given ? { report: { path: given, format: 'junit' } } : {};
    }
    case 'cargo':
      return {}; // libtest's text is the structured output
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

async function readScript(cwd: string, name: string): Promise<string | null> {
  try {
    const manifest = JSON.parse(await readFile(path.join(cwd, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    const script = manifest.scripts?.[name];
    return typeof script === 'string' ? script : null;
  } catch {
    return null;
  }
}

export async function planReporters(input: PlanInput): Promise<ReporterPlan> {
  const { cwd, reportDir } = input;
  const command = input.command.trim();
  const pytestXml = path.join(reportDir, 'pytest.xml');
  const plan: ReporterPlan = {
    runner: null,
    command,
    // Always: pytest may be started by make, tox or a script that booty cannot see into.
    // xunit1 is the family that writes each case's `file` and `line`.
    env: { PYTEST_ADDOPTS: `--junitxml=${shellQuote(pytestXml)} -o junit_family=xunit1` },
    reports: [],
    stdout: null,
  };
  const configured = input.configured.map(
    (glob): ReportFile => ({ path: path.join(cwd, glob), format: 'auto' }),
  );

  const words = simpleCommandWords(command);
  const direct = words ? recogniseRunner(words) : null;
  if (direct && words) {
    plan.runner = direct.runner;
    const add = await injectionFor(direct, reportDir);
    if (add?.afterAnchor) {
      const at = direct.anchor.end;
      plan.command = `${command.slice(0, at)} ${shellArgs(add.afterAnchor)}${command.slice(at)}`;
    }
    if (add?.append) plan.command = `${plan.command} ${shellArgs(add.append)}`;
    if (add?.report) plan.reports.push({ ...add.report, path: path.resolve(cwd, add.report.path) });
    if (add?.stdout) plan.stdout = add.stdout;
  } else if (words) {
    const call = recogniseScriptCall(words);
    const script = call ? await readScript(cwd, call.script) : null;
    const scriptWords = script === null ? null : simpleCommandWords(script.trim());
    const inner = scriptWords ? recogniseRunner(scriptWords) : null;
    if (call && inner) {
      plan.runner = inner.runner;
      const add = await injectionFor(inner, reportDir);
      if (add?.append) {
        plan.command = `${command}${call.separator}${shellArgs(add.append)}`;
        if (add.report) plan.reports.push(add.report);
      } else if (add?.afterAnchor && inner.runner === 'node-test') {
        plan.env.NODE_OPTIONS = nodeOptions(add.afterAnchor);
        if (add.report) plan.reports.push(add.report);
      } else if (add?.report && inner.runner === 'pytest') {
        plan.reports.push({ ...add.report, path: path.resolve(cwd, add.report.path) });
      }
      // `go test` behind a script cannot be given -json from outside: its text is read instead.
    }
  }
  plan.reports.push({ path: pytestXml, format: 'junit' }, ...configured);
  return plan;
}

/** Deletes what an earlier run may have left: injected reports and the configured globs' matches. */
/** Where reports may be read and deleted when the caller does not say: the work tree, and the
 * folders booty put its own reports in. */
export const defaultRoots = (plan: ReporterPlan, cwd: string): string[] => [
  cwd,
  ...plan.reports.filter((r) => r.format !== 'auto').map((r) => path.dirname(r.path)),
];

export async function clearReports(
  plan: ReporterPlan,
  cwd: string,
  roots: readonly string[] = defaultRoots(plan, cwd),
): Promise<void> {
  for (const report of plan.reports) {
    const files =
      report.format === 'auto' ? await expandReportGlob(cwd, path.relative(cwd, report.path)) : [report.path];
    // Never through a link a test planted: that would delete files outside the job.
    for (const file of files) if (await reachableWithoutLinks(file, roots)) await rm(file, { force: true });
  }
}
