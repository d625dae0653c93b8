import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoResponder } from '../../src/demo/demo-script.js';
import { expectReplayVerified } from './conversation-world.js';
import { copyOfWorld, e2eWorld, OWNER, REPO, SECRET, sampleRepoWith } from './e2e-world.js';
import { serve } from './fixtures/crash-serve.js';
import { crashingServe } from './fixtures/crashing-serve.js';

// A job parked in one of the refine loop's waiting states (a plan waiting for approval, a job at
// its token budget) is woken by a writer's `@booty`, and `booty serve` is killed with SIGKILL right
// after event k of what follows, for every k: each new process on the same files takes the job from
// its log and dies after the next event. It must end as the uninterrupted run, GitHub's side
// included, and its log must replay verified. Both runs start from copies of the parked world's
// files (as serve-crash-rounds.test.ts does).

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
 * A writer's command on the issue, then serve until the job settles in `end`, killed after every
 * event from the command's on (or never).
 */
async function runCase(parked: Parked, body: string, end: string, crashes: boolean) {
  const copy = await copyOf(parked);
  try {
    const booty = crashingServe(copy, crashes ? parked.version + 1 : null);
    await booty.start();
    const res = await fetch(`${copy.github.url}/repos/${OWNER}/${REPO}/issues/${parked.issue}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${copy.github.tokenFor(WRITER)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body }),
    });
    expect(res.status).toBe(201);
    await booty.settled(end);
    await booty.stop();
    await expectReplayVerified(copy.dir, parked.jobId, end);
    return { kills: booty.kills, ...outcome(copy, parked) };
  } finally {
    await copy.close();
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

/** The command run clean, and with a kill after every event from it on: both must end alike. */
async function cleanAndCrashed(parked: Parked, body: string, end: string) {
  const [clean, crashed] = await Promise.all([
    runCase(parked, body, end, false),
    runCase(parked, body, end, true),
  ]);
  expect(crashed.kills).toBe(crashed.events.length);
  expect(crashed.end).toEqual(clean.end);
  return clean;
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
    const clean = await cleanAndCrashed(plan, '@booty approve', 'promoted');
    expect(clean.events[0]).toBe('CommandReceived');
    expect(clean.end).toMatchObject({ pulls: [{ draft: false, state: 'open' }], pushes: 1, calls: [0, 1] });
  }, 300_000);

  it('a budget continued: the job resumes where it stopped and ends as the uninterrupted run', async () => {
    const clean = await cleanAndCrashed(budget, '@booty continue', 'promoted');
    expect(clean.events[0]).toBe('CommandReceived');
    expect(clean.end).toMatchObject({ pulls: [{ draft: false, state: 'open' }], pushes: 1, calls: [1, 1] });
  }, 300_000);
});
