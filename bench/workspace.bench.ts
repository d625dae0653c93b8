// workspace: time to a ready job workspace (mirror fetched, job clone on its branch, config read)
// from a warm mirror (and the spare clone booty checks out between jobs), against a fresh full
// clone of the same remote in the same run. The default branch moves by one commit before each
// measured job, so every path has something to fetch and check out. The remote is
// a synthetic repository of 20,000 files and 1,000 commits, built with `git fast-import`, served
// over file:// so git uses its real pack protocol rather than a hard-linking local clone.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobSettings } from '../src/events/job-events.js';
import { initialContext, jobView } from '../src/machines/job-context.js';
import { createWorkspace } from '../src/workspace/workspace.js';
import { type BenchResult, median, ratio, round } from './bench-result.js';

const FILES = 20_000;
const COMMITS = 1_000;
const CHANGED_PER_COMMIT = 20;
const RUNS = 3;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const fileName = (i: number) =>
  `src/pkg${String(Math.floor(i / 100)).padStart(3, '0')}/mod${String(i % 100).padStart(2, '0')}.ts`;
const content = (i: number, version: number) =>
  `// module ${i}, revision ${version}\nexport const id${i} = ${i};\nexport function f${i}(x: number): number {\n  return x * ${version + 1} + ${i};\n}\n${'// padding line to give the file a realistic size\n'.repeat(4)}`;

/** Streams a fast-import script: one commit with every file, then commits that each change a few. */
async function generate(bare: string): Promise<void> {
  git(path.dirname(bare), 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  const child = spawn('git', ['fast-import', '--quiet'], {
    cwd: bare,
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const done = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`)))),
  );
  let buffered: string[] = [];
  let size = 0;
  const write = async (s: string) => {
    buffered.push(s);
    size += s.length;
    if (size > 1 << 20) {
      const chunk = buffered.join('');
      buffered = [];
      size = 0;
      if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once('drain', r));
    }
  };
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let c = 0; c < COMMITS; c++) {
    const when = 1_600_000_000 + c * 3600;
    await write(
      `commit refs/heads/main\ncommitter Bench <bench@example.test> ${when} +0000\n${data(`commit ${c}`)}`,
    );
    const touched =
      c === 0
        ? [...Array(FILES).keys()]
        : [...Array(CHANGED_PER_COMMIT).keys()].map((k) => (c * 7919 + k * 997) % FILES);
    for (const i of touched) {
      await write(`M 100644 inline ${fileName(i)}\n${data(content(i, c))}`);
    }
    if (c === 0)
      await write(
        `M 100644 inline package.json\n${data('{"name":"synthetic","scripts":{"test":"true"}}\n')}`,
      );
    await write('\n');
  }
  child.stdin.end(buffered.join(''));
  await done;
  git(bare, 'gc', '--quiet');
}

/** One more commit on main changing a few files, as the default branch moves between jobs. */
function advance(bare: string, n: number): void {
  const data = (x: string) => `data ${Buffer.byteLength(x)}\n${x}\n`;
  let script = `commit refs/heads/main\ncommitter Bench <bench@example.test> ${1_700_000_000 + n} +0000\n${data(`advance ${n}`)}from refs/heads/main^0\n`;
  for (let k = 0; k < CHANGED_PER_COMMIT; k++) {
    const i = (n * 104_729 + k * 613) % FILES;
    script += `M 100644 inline ${fileName(i)}\n${data(content(i, COMMITS + n))}`;
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: bare, input: `${script}\n` });
}

export default async function run(): Promise<BenchResult[]> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-bench-ws-'));
  try {
    const bare = path.join(base, 'remote.git');
    let t = performance.now();
    await generate(bare);
    process.stderr.write(
      `   generated ${FILES} files, ${COMMITS} commits in ${round((performance.now() - t) / 1000)} s\n`,
    );
    const url = `file://${bare}`;
    const author = { name: 'b', email: 'b@example.test' };
    const ws = createWorkspace({ root: path.join(base, 'workdir'), remoteUrl: () => url, author });
    // The same clone path without the spare, to show what the spare buys.
    const plain = createWorkspace({
      root: path.join(base, 'plain'),
      remoteUrl: () => url,
      author,
      spares: false,
    });
    const job = (n: number) => ({
      ...jobView(
        initialContext({
          type: 'JobRequested',
          jobId: `bench-${n}`,
          repo: { forge: 'github', owner: 'bench', name: 'synthetic' },
          issue: { number: n, title: 'Bench', body: '', url: '' },
          triggerLabel: 'booty',
          sender: 'bench',
          deliveryId: `d${n}`,
          installationId: null,
          requestedAt: 0,
          settings: JobSettings.parse({}),
        }),
      ),
    });
    const signal = new AbortController().signal;
    const prepareWith = (w: typeof ws, n: number) =>
      w.prepare({ key: 'k', step: 'prepare', attempt: 0, notBefore: null, job: job(n) }, { signal });

    await prepareWith(ws, 0); // warms the mirror
    await ws.dispose('bench-0');
    await prepareWith(plain, 0);
    await plain.dispose('bench-0');
    await ws.idle(); // and the spare clone, made off the job's path between jobs

    const warm: number[] = [];
    const noSpare: number[] = [];
    const fresh: number[] = [];
    for (let i = 1; i <= RUNS; i++) {
      advance(bare, i);
      t = performance.now();
      await prepareWith(ws, i);
      warm.push(performance.now() - t);
      await ws.dispose(`bench-${i}`);
      await ws.idle();

      t = performance.now();
      await prepareWith(plain, i);
      noSpare.push(performance.now() - t);
      await plain.dispose(`bench-${i}`);

      const dir = path.join(base, `fresh-${i}`);
      t = performance.now();
      git(base, 'clone', '--quiet', url, dir);
      git(dir, 'checkout', '--quiet', '-b', `booty/issue-${i}-bench`);
      fresh.push(performance.now() - t);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const value = median(warm);
    const baseline = median(fresh);
    const withoutSpare = median(noSpare);
    return [
      {
        name: 'workspace',
        metric: 'ready',
        value: round(value),
        baseline: round(baseline),
        ratio: ratio(value, baseline),
        unit: 'ms',
        goal: 'ratio <= 0.2',
      },
      {
        name: 'workspace',
        metric: 'ready-without-spare',
        value: round(withoutSpare),
        baseline: round(baseline),
        ratio: ratio(withoutSpare, baseline),
        unit: 'ms',
        goal: 'report only: the warm mirror alone, the job checking out every file itself',
      },
    ];
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
