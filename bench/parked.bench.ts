// parked: what 1,000 jobs waiting with open PRs cost a running `booty serve`, and how fast a
// webhook about one of their PRs gets it working again.
//
// 1,000 jobs parked in `promoted` are written straight into one SQLite database through the store,
// event for event as the job runner writes them (bench/parked-log.ts); one of them is checked with
// `booty replay --verify`'s logic (hash chain, and every recorded state against the fold) before
// anything is measured. The real CLI (dist/src/cli/bin.js serve, as an installed booty runs) then
// starts on that database with BOOTY_SANDBOX=off and a stand-in GitHub API (bench/parked-github.ts)
// in this process; serve needs no model for this, so ANTHROPIC_BASE_URL points at the stand-in too.
//
// parked-rss: VmRSS of the idle serve 2 s after it says it listens, median of 3, against the same
// serve on an empty database, in turns. Booting checks every parked job's log as `booty replay
// --verify` does (src/engine/log-check.ts), and must not run one: no job event is logged and no
// GitHub request made before the first webhook.
//
// wake-p99: one signed check_suite.completed delivery at a time, each for a different parked job's
// PR head and branch, timed from the POST to the woken job's effect starting, which is when readCi's
// first request for that head reaches the stand-in GitHub (the state with the invoke was entered
// and written just before; the time to that log line is reported beside). The stand-in answers
// "no checks" at once, so readCi succeeds, the job parks again and frees its slot before the next
// delivery. Baseline: the POST-to-reply time of a delivery that is only recorded and ignored (a
// check_suite for a PR no job has), sent in turns with the wakes. Wall-clock p99 of 200 is the
// third-worst sample, so a busy neighbour on a shared machine moves it (and the baseline's) a lot;
// the serve's CPU time per wake (from /proc, with the ignored deliveries' share measured apart) is
// printed beside it, with RSS every 50 wakes and the heap in use from the serve's /metrics.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type BenchResult, median, ratio, round } from './bench-result.js';
import { built } from './built.js';
import { startStubGitHub } from './parked-github.js';
import { OWNER, type ParkedJob, REPO, writeParkedJobs } from './parked-log.js';

const { readTimeline, assertVerified } =
  await built<typeof import('../src/engine/timeline.js')>('src/engine/timeline.js');
const { SqliteEventStore } = await built<typeof import('../src/store/sqlite/sqlite-event-store.js')>(
  'src/store/sqlite/sqlite-event-store.js',
);

const PARKED = 1_000;
const WAKES = 200;
/** Wakes before the measured ones: the first loads octokit, the next few warm the paths. */
const WARMUP = 5;
const RSS_RUNS = 3;
const IDLE_MS = 2_000;
const SECRET = 'bench-parked-secret';
const WAIT_MS = 15_000;

const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'dist/src/cli/bin.js');

interface JobLine {
  jobId: string;
  state: string;
  version: number;
  at: number;
}

/** `booty serve` in a child process; its JSON log lines on stdout are read as they come. */
class Serve {
  readonly proc: ChildProcess;
  readonly url: Promise<string>;
  readonly exited: Promise<number | null>;
  readonly jobLines: JobLine[] = [];
  private readonly waiters: { match: (l: JobLine) => boolean; resolve: (l: JobLine) => void }[] = [];
  private stderr = '';

  constructor(env: NodeJS.ProcessEnv) {
    this.proc = spawn(process.execPath, [bin, 'serve'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolve) =>
      this.proc.on('exit', (code, signal) => {
        if (signal) this.stderr += ` (killed by ${signal})`;
        resolve(code);
      }),
    );
    this.proc.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    let pending = '';
    let listening: (url: string) => void;
    this.url = new Promise<string>((resolve, reject) => {
      listening = resolve;
      void this.exited.then((code) =>
        reject(new Error(`parked bench: serve exited ${code} before listening: ${this.stderr}`)),
      );
    });
    this.proc.stdout!.on('data', (d: Buffer) => {
      const at = performance.now();
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const m = /^booty is listening on (\S+) /.exec(line);
        if (m) listening(m[1]!);
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; jobId?: string; state?: string; version?: number };
        if (entry.msg !== 'job event') continue;
        const job = { jobId: entry.jobId!, state: entry.state!, version: entry.version!, at };
        this.jobLines.push(job);
        for (const w of [...this.waiters]) {
          if (!w.match(job)) continue;
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(job);
        }
      }
    });
  }

  /** The first job event line for this job at this version. */
  line(jobId: string, version: number): Promise<JobLine> {
    const match = (l: JobLine) => l.jobId === jobId && l.version === version;
    const seen = this.jobLines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  rssMb(): number {
    const status = fs.readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
  }

  /** CPU time the process has used, in ms (clock ticks of 10 ms: for totals over many requests). */
  cpuMs(): number {
    const fields = fs.readFileSync(`/proc/${this.proc.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }

  /** The V8 heap in use and the memory outside it, in MB, from the process's own /metrics. */
  async heap(): Promise<{ heapUsed: number; external: number }> {
    const text = await (await fetch(`${await this.url}/metrics`)).text();
    const gauge = (name: string) =>
      round(
        Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20,
      );
    return {
      heapUsed: gauge('booty_nodejs_heap_size_used_bytes'),
      external: gauge('booty_nodejs_external_memory_bytes'),
    };
  }

  async stop() {
    if (this.proc.exitCode === null) this.proc.kill('SIGTERM');
    if ((await this.exited) !== 0)
      throw new Error(`parked bench: serve did not stop cleanly: ${this.stderr}`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function within<T>(what: string, p: Promise<T>, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`parked bench: timed out waiting for ${what}`)), ms);
    }),
  ]);
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.99) - 1]!;

/** GitHub's check_suite.completed for a commit on a branch and PR. */
function checkSuite(sha: string, branch: string, pr: number) {
  return {
    action: 'completed',
    check_suite: {
      head_sha: sha,
      head_branch: branch,
      conclusion: 'success',
      pull_requests: [{ number: pr }],
    },
    repository: { name: REPO, owner: { login: OWNER, type: 'Organization' } },
    sender: { login: 'github-actions[bot]', type: 'Bot' },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Posts one signed delivery; resolves with its reply and when it was sent (performance.now()). */
function post(base: string, id: string, event: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  return new Promise<{ sent: number; replied: number; status: number; reply: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = http.request(new URL('/webhooks', base), {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-github-delivery': id,
          'x-hub-signature-256': signature,
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          resolve({ sent, replied: performance.now(), status: res.statusCode!, reply: JSON.parse(text) }),
        );
      });
      req.on('error', reject);
      const sent = performance.now();
      req.end(body);
    },
  );
}

/** `booty replay --verify`'s check, and the state the log folds to. */
async function verifiedState(db: string, jobId: string): Promise<{ state: string; events: number }> {
  const store = new SqliteEventStore(db);
  try {
    const timeline = await readTimeline(store, jobId);
    assertVerified(timeline);
    return { state: String(timeline.snapshot.value), events: timeline.entries.length };
  } finally {
    await store.close();
  }
}

export default async function run(): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-parked-'));
  const github = await startStubGitHub();
  const serves: Serve[] = [];
  const env = (db: string, name: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
    GITHUB_API_URL: github.url,
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: github.url,
    BOOTY_SANDBOX: 'off',
    BOOTY_DB: db,
    BOOTY_WORKDIR: path.join(dir, `work-${name}`),
  });
  const start = (db: string, name: string) => {
    const serve = new Serve(env(db, name));
    serves.push(serve);
    return serve;
  };
  try {
    // The parked jobs, and one checked the way `booty replay --verify` checks a log.
    const parkedDb = path.join(dir, 'parked.db');
    const writing = performance.now();
    const jobs = await writeParkedJobs(parkedDb, PARKED);
    const sample = jobs[Math.floor(jobs.length / 2)]!;
    const before = await verifiedState(parkedDb, sample.jobId);
    if (before.state !== 'promoted' || before.events !== 9)
      throw new Error(`parked bench: ${sample.jobId} folds to ${before.state} with ${before.events} events`);
    process.stderr.write(
      `   wrote ${PARKED} parked jobs (${PARKED * 9} events, ${round(fs.statSync(parkedDb).size / 2 ** 20)} MB) in ${round(performance.now() - writing, 0)} ms; ${sample.jobId} verifies and folds to promoted\n`,
    );

    // Idle RSS: empty and parked databases in turns; the last parked serve stays up for the wakes.
    const emptyRss: number[] = [];
    const parkedRss: number[] = [];
    let serve: Serve | null = null;
    for (let i = 0; i < RSS_RUNS; i++) {
      const empty = start(path.join(dir, `empty-${i}.db`), `empty-${i}`);
      await within('the empty serve to listen', empty.url);
      await sleep(IDLE_MS);
      emptyRss.push(empty.rssMb());
      await empty.stop();

      serve = start(parkedDb, `parked-${i}`);
      await within('the parked serve to listen', serve.url);
      await sleep(IDLE_MS);
      parkedRss.push(serve.rssMb());
      if (serve.jobLines.length || github.requests.length)
        throw new Error(
          `parked bench: serve touched parked jobs at boot: ${serve.jobLines.length} job events, ${github.requests.length} GitHub requests`,
        );
      if (i < RSS_RUNS - 1) await serve.stop();
    }
    process.stderr.write(
      `   idle serve RSS MB, ${PARKED} parked: ${parkedRss.map((n) => round(n)).join(', ')}; empty database: ${emptyRss.map((n) => round(n)).join(', ')}\n`,
    );

    // Wake-ups, one at a time, each with an ignored delivery before it.
    const base = await serve!.url;
    const wakeMs: number[] = [];
    const loggedMs: number[] = [];
    const repliedMs: number[] = [];
    const ignoredMs: number[] = [];
    const coldMs: number[] = [];
    const woken: ParkedJob[] = [];
    const heapIdle = await serve!.heap();
    const rssTrace: number[] = [];
    let cpuStart = 0;
    for (let i = 0; i < WARMUP + WAKES; i++) {
      if (i === WARMUP) cpuStart = serve!.cpuMs();
      if (i >= WARMUP && (i - WARMUP) % 50 === 0) rssTrace.push(round(serve!.rssMb()));
      const miss = await post(
        base,
        `unknown-${i}`,
        'check_suite',
        checkSuite(`${'f'.repeat(32)}${String(i).padStart(8, '0')}`, `booty/issue-none-${i}`, 90_000 + i),
      );
      if (miss.status !== 202 || miss.reply.ignored !== true)
        throw new Error(
          `parked bench: the unknown PR's delivery was not ignored: ${JSON.stringify(miss.reply)}`,
        );
      await sleep(5);

      const job = jobs[i]!;
      const ciRead = github.ciReadOn(job.headSha);
      const logged = serve!.line(job.jobId, 10);
      const parkedAgain = serve!.line(job.jobId, 11);
      const wake = await post(base, `wake-${i}`, 'check_suite', checkSuite(job.headSha, job.branch, job.pr));
      if (wake.status !== 202 || wake.reply.woke !== true || wake.reply.jobId !== job.jobId)
        throw new Error(`parked bench: ${job.jobId} was not woken: ${JSON.stringify(wake.reply)}`);
      const effectAt = await within(`${job.jobId}'s CI read`, ciRead);
      const line = await within(`${job.jobId}'s checkingCi event`, logged);
      if (line.state !== 'checkingCi') throw new Error(`parked bench: ${job.jobId} woke into ${line.state}`);
      const again = await within(`${job.jobId} to park again`, parkedAgain);
      if (again.state !== 'promoted') throw new Error(`parked bench: ${job.jobId} went on to ${again.state}`);
      if (i < WARMUP) coldMs.push(effectAt - wake.sent);
      else {
        wakeMs.push(effectAt - wake.sent);
        loggedMs.push(line.at - wake.sent);
        repliedMs.push(wake.replied - wake.sent);
        ignoredMs.push(miss.replied - miss.sent);
        woken.push(job);
      }
      // The settled job's progress comment goes out before the next delivery.
      await sleep(20);
    }
    const cpuLoop = serve!.cpuMs() - cpuStart;
    const afterWakes = serve!.rssMb();
    const heapAfter = await serve!.heap();
    // The same number of ignored deliveries alone, for their share of the loop's CPU time.
    const cpuIgnoredStart = serve!.cpuMs();
    for (let i = 0; i < WAKES; i++) {
      const miss = await post(
        base,
        `alone-${i}`,
        'check_suite',
        checkSuite('e'.repeat(40), `booty/x-${i}`, 80_000 + i),
      );
      if (miss.status !== 202) throw new Error(`parked bench: an ignored delivery got ${miss.status}`);
      await sleep(5);
    }
    const cpuIgnored = serve!.cpuMs() - cpuIgnoredStart;
    await serve!.stop();
    const after = await verifiedState(parkedDb, woken[0]!.jobId);
    if (after.state !== 'promoted' || after.events !== 11)
      throw new Error(`parked bench: a woken job folds to ${after.state} with ${after.events} events`);

    const f = (xs: number[]) =>
      `median ${round(median(xs))}, p99 ${round(p99(xs))}, max ${round(Math.max(...xs))}`;
    process.stderr.write(
      `   wake, POST to readCi's first request (ms): ${f(wakeMs)}; the first ${WARMUP} (not counted): ${coldMs.map((n) => round(n)).join(', ')}\n` +
        `   wake, POST to its checkingCi event logged: ${f(loggedMs)}; POST to the reply: ${f(repliedMs)}\n` +
        `   ignored delivery, POST to the reply: ${f(ignoredMs)}\n` +
        `   serve CPU per wake (its progress comment and re-parking included): ${round((cpuLoop - cpuIgnored) / WAKES)} ms; per ignored delivery ${round(cpuIgnored / WAKES, 2)} ms\n` +
        `   serve RSS every 50 wakes: ${rssTrace.join(', ')}, after ${WARMUP + WAKES}: ${round(afterWakes)} MB; heap used ${heapIdle.heapUsed} MB idle, ${heapAfter.heapUsed} MB after (external ${heapIdle.external} → ${heapAfter.external} MB); ${github.requests.length} GitHub requests\n`,
    );

    const rss = round(median(parkedRss));
    const rssBase = round(median(emptyRss));
    const wake = round(p99(wakeMs));
    const wakeBase = round(p99(ignoredMs));
    return [
      {
        name: 'parked-rss',
        metric: 'rss',
        value: rss,
        baseline: rssBase,
        ratio: ratio(rss, rssBase),
        unit: 'MB',
        // 10,000 parked jobs hold at most what the whole empty serve holds again.
        goal: 'ratio <= 2',
      },
      {
        name: 'wake-p99',
        metric: 'p99',
        value: wake,
        baseline: wakeBase,
        ratio: ratio(wake, wakeBase),
        unit: 'ms',
        // Waking a parked job (its log read, checked and folded, its first effect started) costs at
        // most ten times answering a delivery it ignores.
        goal: 'ratio <= 10',
      },
    ];
  } finally {
    for (const s of serves) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
    agent.destroy();
    await github.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
