import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { bareDir } from '../../sim/github/github-sim-git.js';
import { demoResponder } from '../../src/demo/demo-script.js';
import { cli } from '../support/cli.js';
import { personOn } from '../support/github-person.js';
import { e2eWorld, e2eWorldCopiedFrom, OWNER, REPO, type WorldOptions } from './e2e-world.js';

// A job waiting with its promoted PR, and what the conversation tests do around it: act as people,
// let every webhook and job run out, read the remote's git, and check the job's log with
// `booty replay --verify`, the command line's own code.

const run = promisify(execFile);

/** The model's answer to a follow-up round: one more test file per round, so each round changes something. */
export function followUpResponder(): Responder {
  const demo = demoResponder('pass');
  let rounds = 0;
  return (request) => {
    if (request.toolName !== 'submit_changes' || !request.raw.includes('a follow-up round was asked for'))
      return demo(request);
    rounds += 1;
    const test = `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { parseDuration } from '../src/duration.js';\n\ntest('round ${rounds}: parses days', () => {\n  assert.equal(parseDuration('2d'), 172_800_000);\n});\n`;
    return {
      answer: {
        explanation: `Round ${rounds}: adds the case asked for.`,
        changes: [{ path: `test/round-${rounds}.test.js`, content: test }],
        deletePaths: [],
      },
    };
  };
}

/** `booty replay <job> --verify --json` on the world's database: every recorded state checks out against the fold. */
export async function expectReplayVerified(dir: string, jobId: string, finalState: string) {
  const { code, out, err } = await cli([
    'replay',
    jobId,
    '--verify',
    '--json',
    '--db',
    path.join(dir, 'booty.db'),
  ]);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(JSON.parse(out)).toMatchObject({ jobId, verified: true, finalState });
}

export type ConversationWorld = Awaited<ReturnType<typeof promotedJob>>;

/** The options a parked world was made with, and the world: one job run to its promoted PR. */
const parkedWorlds = new Map<string, Promise<{ dir: string; issue: number; jobId: string }>>();

/** booty in-process on a fresh world, its job labeled and run to its promoted PR; all closed after. */
async function parkedWorld(options: Omit<WorldOptions, 'responder'>) {
  const world = await e2eWorld('pass', options);
  try {
    world.anthropic.setResponder(followUpResponder());
    const booty = await world.startInProcess();
    await world.label();
    const [job] = await booty.store.listJobs();
    expect((await booty.server.supervisor.whenFinished(job!.jobId)).value).toBe('promoted');
    await world.github.settled();
    await booty.runtime!.idle();
    return { dir: world.dir, issue: world.issue, jobId: job!.jobId };
  } finally {
    await world.close();
  }
}

/**
 * booty in-process on a world whose job waits with its promoted PR. The job runs once per test
 * file and options: each call starts from a copy of that world's files, GitHub's included, with a
 * model of its own, so the tests do not share what they do to it.
 */
export async function promotedJob(options: Omit<WorldOptions, 'responder'> = {}) {
  const key = JSON.stringify(options);
  if (!parkedWorlds.has(key)) parkedWorlds.set(key, parkedWorld(options));
  const parked = await parkedWorlds.get(key)!;
  const world = await e2eWorldCopiedFrom(parked, followUpResponder());
  const booty = await world.startInProcess();
  const { supervisor } = booty.server;
  const { jobId } = parked;
  expect((await supervisor.whenFinished(jobId)).value).toBe('promoted');
  const pr = world.pulls()[0]!;
  const bare = bareDir(world.github.dir, OWNER, REPO);
  const logLength = async () => (await booty.store.readStream(jobId)).length;

  return {
    world,
    booty,
    jobId,
    pr,
    branch: pr.head,
    /** The job as its log folds now. */
    job: () => supervisor.whenFinished(jobId),
    logLength,
    /** The PR as the simulator holds it now. */
    pull: () => world.pulls().find((p) => p.number === pr.number)!,
    /** A writer's REST client: someone with write access to the repository. */
    writer(login: string) {
      world.github.setRole(OWNER, REPO, login, 'write');
      return personOn(world.github, login);
    },
    /**
     * Until nothing moves: every webhook tried, every job run, every comment written. A job's push
     * causes webhooks and CI, which wake the job again, so it goes round until a pass changes nothing.
     */
    async quiet() {
      for (;;) {
        const before = [world.github.requests().length, await logLength()];
        await world.github.settled();
        await supervisor.onIdle();
        await booty.runtime!.idle();
        const after = [world.github.requests().length, await logLength()];
        if (after[0] === before[0] && after[1] === before[1]) return;
      }
    },
    /** git in the remote (the simulator's bare repository). */
    git: async (...args: string[]) => (await run('git', ['-C', bare, ...args])).stdout.trim(),
    /** What booty's gateway recorded for a delivery. */
    delivery(id: string) {
      const db = new Database(path.join(world.dir, 'booty.db'), { readonly: true });
      try {
        return db.prepare('SELECT outcome, job_id AS jobId FROM deliveries WHERE delivery_id = ?').get(id);
      } finally {
        db.close();
      }
    },
    expectReplayVerified: (finalState: string) => expectReplayVerified(world.dir, jobId, finalState),
    close: () => world.close(),
  };
}
