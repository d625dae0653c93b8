// `booty serve` workers for the benchmarks that run a fleet (workers, fleet): each the built CLI
// (dist/, so `npm run bench` builds first) in its own process and working directory, their
// gateways behind one fanout, and a wait for every job to reach its end.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFanout } from '../test/engine/webhook-fanout.js';

export const bin = path.join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'bin.js');
export const TOKEN = `ghp_${'bench'.repeat(8)}`;
export const SECRET = 'bench-webhook-secret';

export interface Worker {
  proc: ChildProcess;
  /** The gateway's address, once it listens. */
  url: Promise<string>;
}

/** One `booty serve` on its own, with only the environment given (and PATH and HOME). */
export function serve(env: Record<string, string>): Worker {
  const proc = spawn(process.execPath, [bin, 'serve'], {
    cwd: fs.mkdtempSync(path.join(os.tmpdir(), 'booty-workers-cwd-')),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /booty is listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`a worker exited (${code}) before listening:\n${out}`)));
  });
  return { proc, url };
}

/** What every benchmark worker is told: quiet, unsandboxed, on the given simulators. */
export function workerEnv(options: {
  dir: string;
  githubUrl: string;
  anthropicUrl: string;
  slots: number;
}): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    BOOTY_WORKDIR: options.dir,
    BOOTY_SANDBOX: 'off',
    BOOTY_CONCURRENCY: String(options.slots),
    BOOTY_LEASE_POLL_MS: '200',
    GITHUB_API_URL: options.githubUrl,
    GITHUB_TOKEN: TOKEN,
    GITHUB_WEBHOOK_SECRET: SECRET,
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: options.anthropicUrl,
  };
}

/**
 * The workers started, listening, behind one fanout that sends each delivery to the next
 * gateway in turn (any gateway takes any delivery); `close` stops them and the fanout.
 */
export async function startFleet(envs: Record<string, string>[]) {
  const workers = envs.map(serve);
  const close = async () => {
    for (const { proc } of workers) proc.kill('SIGTERM');
    await Promise.all(
      workers.map(
        ({ proc }) =>
          new Promise((resolve) => (proc.exitCode === null ? proc.once('exit', resolve) : resolve(null))),
      ),
    );
    await fanout?.close();
  };
  let fanout: Awaited<ReturnType<typeof startFanout>> | undefined;
  try {
    const urls = await Promise.all(workers.map((w) => w.url));
    fanout = await startFanout(() => urls, {});
  } catch (err) {
    await close();
    throw err;
  }
  return { workers, webhookUrl: fanout.url, close };
}

type ListJobs = () => Promise<{ state: string; final: boolean | number }[]>;
const ended = (j: { state: string; final: boolean | number }) => j.state === 'promoted' || Boolean(j.final);

/**
 * Reads the jobs every 100 ms until `count` are listed and each is promoted or final, or until
 * the clock passes `until` (ms since the epoch); the jobs as they stood then.
 */
export async function jobsBy(listJobs: ListJobs, count: number, until: number) {
  for (;;) {
    const jobs = await listJobs();
    if ((jobs.length === count && jobs.every(ended)) || Date.now() > until) return jobs;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many jobs ended, and where the others stood. */
export function tally(jobs: { state: string; final: boolean | number }[]) {
  const by = new Map<string, number>();
  for (const j of jobs) by.set(j.state, (by.get(j.state) ?? 0) + 1);
  return {
    ended: jobs.filter(ended).length,
    states: [...by].map(([s, n]) => `${n} ${s}`).join(', '),
  };
}

/**
 * Resolves once `count` jobs are listed and each is promoted; throws if that takes longer than
 * `minutes`, naming where the jobs stood, rather than hanging, or if any ended otherwise.
 */
export async function untilAllEnded(listJobs: ListJobs, count: number, minutes: number): Promise<void> {
  const jobs = await jobsBy(listJobs, count, Date.now() + minutes * 60_000);
  if (jobs.length < count || !jobs.every(ended))
    throw new Error(
      `jobs still under way after ${minutes} minutes (${jobs.length} of ${count} listed): ${tally(jobs).states}`,
    );
  const failed = jobs.filter((j) => j.state !== 'promoted');
  if (failed.length > 0)
    throw new Error(`jobs did not reach promoted: ${failed.map((j) => j.state).join(', ')}`);
}

/**
 * CPU seconds a process has used so far (user and system), from /proc; with `children`, those of
 * its children that ended and were waited for (git, the test runs) instead.
 */
export function cpuSeconds(pid: number, children = false): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat (cutime and cstime, 16 and 17), in clock ticks
  // (100 a second on Linux).
  const at = children ? 13 : 11;
  return (Number(fields[at]) + Number(fields[at + 1])) / 100;
}

/** The machine's CPU time so far, busy and in all, in clock ticks over every core (/proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th
  return { busy: total - n[3]! - n[4]!, total };
}
