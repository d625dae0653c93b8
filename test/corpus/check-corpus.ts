import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { type CorpusCase, corpusCases } from './cases.js';
import { corpusDeps, materializeRepo } from './materialize.js';

// Runs every corpus case the way booty would, without booty: materialize, install, test (the
// baseline), write the change, install, test again. Each command runs in a fresh /bin/sh with only
// PATH, HOME (a fresh directory per run), LANG and CI=1; inside bubblewrap like booty's sandbox
// when it works here (tests without network), else plainly (--no-sandbox forces that).
//
//   node --import tsx test/corpus/check-corpus.ts [framework] [--case <name>] [--no-sandbox] [--keep]

interface Ran {
  command: string;
  /** null when killed: after timeoutSeconds, 'timeout'. */
  exitCode: number | 'timeout' | null;
  ms: number;
  output: string;
}
interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const framework = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--case');
const onlyCase = option('--case');
const keep = flag('--keep');

const sandboxed =
  !flag('--no-sandbox') &&
  spawnSync('bwrap', [...bwrapArgs({ writable: [], cwd: '/', network: false }), 'true']).status === 0;

/** booty's sandbox, reduced: / read-only, private /tmp, the repo and HOME writable, .git read-only. */
function bwrapArgs(m: { writable: string[]; readOnly?: string[]; cwd: string; network: boolean }) {
  const out = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  for (const dir of ['/tmp', '/var/tmp', '/dev/shm']) out.push('--tmpfs', dir);
  for (const dir of m.writable) out.push('--bind', dir, dir);
  for (const dir of m.readOnly ?? []) out.push('--ro-bind', dir, dir);
  out.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!m.network) out.push('--unshare-net');
  out.push('--die-with-parent', '--cap-drop', 'ALL', '--chdir', m.cwd, '--');
  return out;
}

function sh(
  command: string,
  o: { cwd: string; home: string; path: string; network: boolean; timeoutMs: number },
): Promise<Ran> {
  const env = { PATH: o.path, HOME: o.home, LANG: 'C.UTF-8', CI: '1' };
  const [file, argv] = sandboxed
    ? [
        'bwrap',
        [
          ...bwrapArgs({
            writable: [o.cwd, o.home],
            readOnly: [path.join(o.cwd, '.git')],
            cwd: o.cwd,
            network: o.network,
          }),
          '/bin/sh',
          '-c',
          command,
        ],
      ]
    : ['/bin/sh', ['-c', command]];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(file as string, argv as string[], {
      cwd: o.cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, o.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Math.round(performance.now() - started);
      const exitCode = timedOut ? 'timeout' : code;
      resolve({ command, exitCode, ms, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');

const sum = (text: string, re: RegExp) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);

/**
 * The runner's own summary counts (go prints none without -v: see goCounts). null where the
 * runner counts assertions rather than tests (tape, node-tap): then only the exit is checked.
 */
function summaryCounts(fw: CorpusCase['framework'], raw: string): Counts | null {
  const out = stripAnsi(raw);
  const word = (line: string, w: string) => Number(new RegExp(`(\\d+) ${w}\\b`).exec(line)?.[1] ?? 0);
  switch (fw) {
    case 'pytest': {
      const line = [...out.matchAll(/^=+ (.+) in [\d.]+s\b.*=+$/gm)].at(-1)?.[1] ?? '';
      return {
        passed: word(line, 'passed') + word(line, 'xpassed'),
        failed: word(line, 'failed') + word(line, 'errors?'),
        skipped: word(line, 'skipped') + word(line, 'xfailed'),
      };
    }
    case 'jest': {
      const line = /^Tests:\s+(.+)$/m.exec(out)?.[1] ?? '';
      return { passed: word(line, 'passed'), failed: word(line, 'failed'), skipped: word(line, 'skipped') };
    }
    case 'vitest': {
      const line = /^\s*Tests\s+(.+)$/m.exec(out)?.[1] ?? '';
      return { passed: word(line, 'passed'), failed: word(line, 'failed'), skipped: word(line, 'skipped') };
    }
    case 'mocha':
      return {
        passed: sum(out, /(\d+) passing/g),
        failed: sum(out, /(\d+) failing/g),
        skipped: sum(out, /(\d+) pending/g),
      };
    case 'node-test':
      return {
        passed: sum(out, /^# pass (\d+)$/gm),
        failed: sum(out, /^# fail (\d+)$/gm) + sum(out, /^# cancelled (\d+)$/gm),
        skipped: sum(out, /^# skipped (\d+)$/gm) + sum(out, /^# todo (\d+)$/gm),
      };
    case 'cargo':
      return {
        passed: sum(out, /^test result: \w+\. (\d+) passed/gm),
        failed: sum(out, /^test result: .*?; (\d+) failed/gm),
        skipped: sum(out, /^test result: .*?; (\d+) ignored/gm),
      };
    case 'go':
      return { passed: 0, failed: 0, skipped: 0 };
    case 'uvu': {
      const total = sum(out, /^\s*Total:\s+(\d+)$/gm);
      const passed = sum(out, /^\s*Passed:\s+(\d+)$/gm);
      return { passed, failed: total - passed, skipped: 0 };
    }
    case 'ava':
      // With failures ava prints no passed count: its ✔ lines are the passes.
      return {
        passed: (out.match(/^\s*✔ (?!\[expected fail\])/gm) ?? []).length,
        failed: sum(out, /^\s*(\d+) tests? failed$/gm),
        skipped: sum(out, /^\s*(\d+) tests? (?:skipped|todo)$/gm),
      };
    case 'jasmine': {
      const line = /^(\d+ specs?, .+)$/m.exec(out)?.[1] ?? '';
      const specs = word(line, 'specs?');
      const failed = word(line, 'failures?');
      const skipped = word(line, 'pending');
      return { passed: specs - failed - skipped, failed, skipped };
    }
    case 'playwright':
      return {
        passed: sum(out, /^\s*(\d+) passed\b/gm),
        failed: sum(out, /^\s*(\d+) failed$/gm),
        skipped: sum(out, /^\s*(\d+) skipped$/gm),
      };
    case 'bun':
      return {
        passed: sum(out, /^\s*(\d+) pass$/gm),
        failed: sum(out, /^\s*(\d+) fail$/gm),
        skipped: sum(out, /^\s*(\d+) skip$/gm),
      };
    case 'deno': {
      const line = /^(?:ok|FAILED) \| (.+)$/m.exec(out)?.[1] ?? '';
      return { passed: word(line, 'passed'), failed: word(line, 'failed'), skipped: word(line, 'ignored') };
    }
    case 'phpunit': {
      const ok = /^OK \((\d+) tests?,/m.exec(out);
      if (ok) return { passed: Number(ok[1]), failed: 0, skipped: 0 };
      const line = /^Tests: (.+)\.$/m.exec(out)?.[1] ?? '';
      const total = word(line, '');
      const failed =
        Number(/Failures: (\d+)/.exec(line)?.[1] ?? 0) + Number(/Errors: (\d+)/.exec(line)?.[1] ?? 0);
      const skipped = Number(/Skipped: (\d+)/.exec(line)?.[1] ?? 0);
      return { passed: Number(/^(\d+)/.exec(line)?.[1] ?? total) - failed - skipped, failed, skipped };
    }
    case 'rspec': {
      const line = /^(\d+ examples?, .+)$/m.exec(out)?.[1] ?? '';
      const failed = word(line, 'failures?');
      const skipped = word(line, 'pending');
      return { passed: word(line, 'examples?') - failed - skipped, failed, skipped };
    }
    case 'minitest': {
      const line = /^(\d+ (?:runs|tests), .+)$/m.exec(out)?.[1] ?? '';
      const failed = word(line, 'failures') + word(line, 'errors');
      const skipped = word(line, 'skips');
      return { passed: word(line, '(?:runs|tests)') - failed - skipped, failed, skipped };
    }
    case 'ctest': {
      const m = /tests passed, (\d+) tests? failed out of (\d+)/.exec(out);
      const skipped = (/did not run:\n((?:\s+\d+ - .+\n)+)/.exec(out)?.[1] ?? '')
        .split('\n')
        .filter(Boolean).length;
      return m ? { passed: Number(m[2]) - Number(m[1]), failed: Number(m[1]), skipped } : null;
    }
    case 'tape':
    case 'node-tap':
      return null;
  }
}

/** go test -v's `--- PASS/FAIL/SKIP` lines, leaves only (a parent test with subtests is not one). */
function goCounts(raw: string): Counts {
  const results = [...raw.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+) /gm)].map((m) => [m[1]!, m[2]!] as const);
  const leaves = results.filter(([, name]) => !results.some(([, other]) => other.startsWith(`${name}/`)));
  const count = (s: string) => leaves.filter(([status]) => status === s).length;
  return { passed: count('PASS'), failed: count('FAIL'), skipped: count('SKIP') };
}

const tail = (raw: string, lines = 4) =>
  stripAnsi(raw)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => /\w/.test(l)) // not the runners' rules (====, ⎯⎯⎯⎯)
    .slice(-lines)
    .map((l) => `      | ${l.length > 150 ? `${l.slice(0, 147)}...` : l}`)
    .join('\n');

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

interface Phase {
  install: Ran | null;
  test: Ran;
  counts: Counts | null;
}

async function phase(
  c: CorpusCase,
  dir: string,
  cfg: { test: string; install: string | null; timeoutMs: number },
  PATH: string,
): Promise<Phase> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'corpus-home-'));
  try {
    const base = { cwd: dir, home, path: PATH, timeoutMs: cfg.timeoutMs };
    const install = cfg.install ? await sh(cfg.install, { ...base, network: true }) : null;
    const test = await sh(cfg.test, { ...base, network: false });
    let counts = summaryCounts(c.framework, test.output);
    if (c.framework === 'go' && /^go test\b/.test(cfg.test)) {
      counts = goCounts(
        (await sh(cfg.test.replace(/^go test\b/, 'go test -v'), { ...base, network: false })).output,
      );
    }
    return { install, test, counts };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

function exitProblem(ran: Ran, e: { broken: string | null } & Counts): string | null {
  const code = ran.exitCode;
  if (e.broken) return code !== 0 ? null : `exit ${code}, but the command should not work`;
  if (e.failed > 0) return code !== 0 ? null : `exit 0 with ${e.failed} failing`;
  if (e.passed + e.skipped === 0) return null; // no tests: runners differ (pytest 5, jest 1, go 0)
  return code === 0 ? null : `exit ${code} with nothing failing`;
}

function report(label: string, p: Phase, e: { broken: string | null; failing: string[] } & Counts): boolean {
  const problems: string[] = [];
  if (p.install && p.install.exitCode !== 0) problems.push(`install exited ${p.install.exitCode}`);
  const exit = exitProblem(p.test, e);
  if (exit) problems.push(exit);
  const got = p.counts ? `${p.counts.passed}/${p.counts.failed}/${p.counts.skipped}` : 'not counted';
  const want = `${e.passed}/${e.failed}/${e.skipped}`;
  if (p.counts && got !== want) problems.push(`counts ${got}, expected ${want}`);
  const install = p.install ? `install exit ${p.install.exitCode} ${secs(p.install.ms)}, ` : '';
  console.log(
    `  ${label.padEnd(8)} ${install}test exit ${p.test.exitCode} ${secs(p.test.ms)}, passed/failed/skipped ${got}` +
      `${problems.length ? `  MISMATCH: ${problems.join('; ')}` : '  ok'}`,
  );
  if (e.failing.length) console.log(`      expected failing: ${e.failing.join(', ')}`);
  if (p.install && p.install.exitCode !== 0) console.log(tail(p.install.output));
  console.log(tail(p.test.output));
  return problems.length === 0;
}

/** Wall time per framework, install + test, summed over its cases: [baseline, after]. */
const times = new Map<string, [number, number]>();
const timed = (c: CorpusCase, i: 0 | 1, p: Phase) => {
  const t = times.get(c.framework) ?? [0, 0];
  t[i] += (p.install?.ms ?? 0) + p.test.ms;
  times.set(c.framework, t);
  return p;
};

async function checkCase(c: CorpusCase, deps: string): Promise<boolean> {
  const into = await mkdtemp(path.join(os.tmpdir(), 'corpus-check-'));
  try {
    const { dir, extraPath } = await materializeRepo(c.repo, into, { deps });
    const config = parse(await readFile(path.join(dir, '.github/booty.yml'), 'utf8'));
    const cfg = {
      test: config.test.command as string,
      install: (config.install?.command as string | undefined) ?? null,
      timeoutMs: (config.timeoutSeconds ?? 600) * 1000,
    };
    // Unsandboxed, the host tools beside the repository would be reachable: leave them off PATH, as
    // the sandbox (which binds neither them nor anything under its private /tmp) would.
    const hidden = !sandboxed && extraPath?.startsWith(into);
    const PATH = extraPath && !hidden ? `${extraPath}:${process.env.PATH}` : (process.env.PATH ?? '');
    console.log(`\n${c.framework}/${c.name}  (repo ${c.repo}${hidden ? '; host tool left off PATH' : ''})`);
    let ok = report('baseline', timed(c, 0, await phase(c, dir, cfg, PATH)), c.expect.baseline);
    if (c.expect.after) {
      for (const [rel, content] of Object.entries(c.change)) {
        const file = path.join(dir, rel);
        if (content === null) await rm(file, { force: true });
        else await mkdir(path.dirname(file), { recursive: true }).then(() => writeFile(file, content));
      }
      const after = c.expect.after;
      const ran = timed(c, 1, await phase(c, dir, cfg, PATH));
      ok = report(`after (${after.verdict})`, ran, { broken: null, ...after }) && ok;
    }
    return ok;
  } finally {
    if (keep) console.log(`  kept ${path.join(into, c.repo)}`);
    else await rm(into, { recursive: true, force: true });
  }
}

const cases = corpusCases.filter(
  (c) => (!framework || c.framework === framework) && (!onlyCase || c.name === onlyCase),
);
if (cases.length === 0) {
  console.error(`no corpus case matches ${framework ?? ''} ${onlyCase ?? ''}`);
  process.exit(2);
}
const deps = await corpusDeps();
console.log(`${cases.length} cases, ${sandboxed ? 'in bubblewrap' : 'unsandboxed'}, deps in ${deps}`);
const started = performance.now();
const failed: string[] = [];
for (const c of cases) if (!(await checkCase(c, deps))) failed.push(`${c.framework}/${c.name}`);
console.log('\nwall time, install + test, summed over the cases: baseline / after the change');
for (const [fw, [baseline, after]] of times)
  console.log(`  ${fw.padEnd(10)} ${secs(baseline)} / ${secs(after)}`);
console.log(
  `${cases.length - failed.length}/${cases.length} behave as expected in ${secs(performance.now() - started)}`,
);
if (failed.length) {
  console.log(`mismatches: ${failed.join(', ')}`);
  process.exitCode = 1;
}
