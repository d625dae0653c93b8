import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoResponder } from '../../src/demo/demo-script.js';
import { expectReplayVerified } from './conversation-world.js';
import { copyOfWorld, e2eWorld, OWNER, REPO, SECRET, sampleRepoWith } from './e2e-world.js';
import { type Serve, serve } from './fixtures/crash-serve.js';

// A job parked in one of the refine loop's waiting states (a plan waiting for approval, a job at
// its token budget) is woken by a writer's `@booty`, and `booty serve` is killed with SIGKILL right
// after event k of what follows, for every k; a new process on the same files finishes it. It must
// end as the uninterrupted run, GitHub's side included, and its log must replay verified. Each
// case starts from a copy of the parked world's files (as serve-crash-rounds.test.ts does).

const WRITER = 'maintainer';

interface Parked {
  dir: string;
  env: Record<string, string>;
  jobId: string;
  issue: number;
  version: number;
}

/** One job run by `booty serve` until it parks in `state`; every process has exited. */
async function parkedWorld(state: string, yml: string, env: Record<string, string>): Promise<Parked> {
  const world = await e2eWorld('pass', { repoDir: sampleRepoWith(yml) });
  try {
    const serveEnv = world.env({ LOG_LEVEL: 'warn', ...env });
    const booty = serve(serveEnv);
    world.github.setWebhook({ url: `${await booty.url}/webhooks`, secret: SECRET });
    await world.label();
    const [, jobId, settled, version] = await booty.next(/^SETTLED (\S+) (\S+) (\d+)$/);
    expect(settled).toBe(state);
    booty.proc.kill('SIGTERM');
    expect(await booty.exited).toBe(0);
    await world.github.settled();
    // Before the copies, so each copy has the same writer (and ids) as the others.
    world.github.setRole(OWNER, REPO, WRITER, 'write');
    world.github.tokenFor(WRITER);
    return { dir: world.dir, env: serveEnv, jobId: jobId!, issue: world.issue, version: Number(version) };
  } finally {
    await world.close();
  }
}

/** The parked world's files copied, with a GitHub and a model of their own. */
const copyOf = (parked: Parked) => copyOfWorld(parked, demoResponder('pass'));
type Copy = Awaited<ReturnType<typeof copyOf>>;

/**
 * A writer's command on the issue, then serve until the job settles in `end`: killed after event
 * `killAt` (if it comes), and started once more on the same files.
 */
async function runCase(parked: Parked, body: string, end: string, killAt: number | null) {
  const copy = await copyOf(parked);
  let current: Serve;
  let restarts = 0;
  const start = async () => {
    current = serve({
      ...copy.env,
      ...(killAt !== null && restarts === 0 ? { KILL_AT: String(killAt) } : {}),
    });
    copy.github.setWebhook({ url: `${await current.url}/webhooks`, secret: SECRET });
  };
  try {
    await start();
    const res = await fetch(`${copy.github.url}/repos/${OWNER}/${REPO}/issues/${parked.issue}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${copy.github.tokenFor(WRITER)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body }),
    });
    expect(res.status).toBe(201);
    for (;;) {
      const line = await current!.next(/^SETTLED \S+ (\S+) (\d+)$/).catch(() => null);
      if (!line) {
        const exit = await current!.exited;
        if (exit !== 'SIGKILL' || restarts > 0)
          throw new Error(`serve ended (${exit}) before the job settled:\n${current!.output()}`);
        restarts++;
        await start();
        continue;
      }
      await copy.github.settled();
      if (Number(line[2]) < logVersion(copy, parked)) continue;
      if (line[1] !== end)
        throw new Error(`the job settled in ${line[1]}, not ${end}:\n${current!.output()}`);
      break;
    }
    current!.proc.kill('SIGTERM');
    expect(await current!.exited).toBe(0);
    await expectReplayVerified(copy.dir, parked.jobId, end);
    return { killed: restarts > 0, ...outcome(copy, parked) };
  } finally {
    await copy.close();
  }
}

function logVersion(copy: Copy, parked: Parked): number {
  const db = new Database(copy.env.BOOTY_DB, { readonly: true });
  try {
    return db
      .prepare('SELECT max(version) FROM events WHERE stream_id = ?')
      .pluck()
      .get(parked.jobId) as number;
  } finally {
    db.close();
  }
}

/** The job's events after the park, and GitHub's side, as a crashed run must reproduce it. */
function outcome(copy: Copy, parked: Parked) {
  const db = new Database(copy.env.BOOTY_DB, { readonly: true });
  const events = db
    .prepare('SELECT type FROM events WHERE stream_id = ? AND version > ? ORDER BY version')
    .pluck()
    .all(parked.jobId, parked.version) as string[];
  db.close();
  const gh = copy.github;
  const pulls = gh.pulls(OWNER, REPO);
  return {
    events,
    end: {
      pulls: pulls.map((p) => ({ draft: p.draft, state: p.state, head: p.headSha })),
      comments: gh.comments(OWNER, REPO).map((c) => ({
        on: c.issueNumber,
        author: c.author,
        marker: /<!-- booty:(\w+)/.exec(c.body)?.[1] ?? null,
      })),
      pushes: gh.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/git-receive-pack')).length,
      calls: ['submit_analysis', 'submit_changes'].map(
        (tool) => copy.anthropic.messages().filter((m) => m.toolName === tool && m.status === 200).length,
      ),
    },
  };
}

async function inPairs<T>(items: T[], fn: (t: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += 2) await Promise.all(items.slice(i, i + 2).map(fn));
}

/** A kill after every event from the command's on: each case must end as the clean one did. */
async function crashEvery(
  parked: Parked,
  body: string,
  end: string,
  clean: Awaited<ReturnType<typeof runCase>>,
) {
  const ks = clean.events.map((_, i) => parked.version + 1 + i);
  const failures: string[] = [];
  await inPairs(ks, async (k) => {
    const crashed = await runCase(parked, body, end, k);
    const at = `kill after event ${k} (${clean.events[k - parked.version - 1]})`;
    if (!crashed.killed) failures.push(`${at}: serve was not killed (events ${crashed.events.join(', ')})`);
    if (JSON.stringify(crashed.end) !== JSON.stringify(clean.end))
      failures.push(`${at}: ended ${JSON.stringify(crashed.end)}, not ${JSON.stringify(clean.end)}`);
  });
  expect(failures).toEqual([]);
}

describe('booty serve killed after a writer answers a waiting job', () => {
  let plan: Parked;
  let budget: Parked;
  beforeAll(async () => {
    [plan, budget] = await Promise.all([
      parkedWorld('awaitingApproval', 'maxAttempts: 3\napproval: plan', {}),
      parkedWorld('budgetExhausted', 'maxAttempts: 3', {
        BOOTY_MAX_TOKENS_PER_JOB: '1',
        BOOTY_BUDGET_STEP: '10000000',
      }),
    ]);
  }, 120_000);

  it('a plan approved: the change written once, one PR, one push, whatever event the crash follows', async () => {
    const clean = await runCase(plan, '@booty approve', 'promoted', null);
    expect(clean.events[0]).toBe('CommandReceived');
    expect(clean.end).toMatchObject({ pulls: [{ draft: false, state: 'open' }], pushes: 1, calls: [0, 1] });
    await crashEvery(plan, '@booty approve', 'promoted', clean);
  }, 600_000);

  it('a budget continued: the job resumes where it stopped and ends as the uninterrupted run', async () => {
    const clean = await runCase(budget, '@booty continue', 'promoted', null);
    expect(clean.events[0]).toBe('CommandReceived');
    expect(clean.end).toMatchObject({ pulls: [{ draft: false, state: 'open' }], pushes: 1, calls: [1, 1] });
    await crashEvery(budget, '@booty continue', 'promoted', clean);
  }, 600_000);
});
