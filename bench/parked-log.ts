// The logs of jobs parked with an open, ready PR, written straight through the store as the job
// runner writes them: JobRequested, then StepSucceeded for prepare, baseline, analyze, generate,
// apply, test, openPr and promote, each row with its catalogue version, the state the job reached
// (folded, as the runner folds it), the runner's meta, and the read model (branch and PR included)
// in the same commit. The jobs differ in issue, branch, PR number and head sha, so each webhook
// about a PR finds exactly one job. Built modules (dist/), as the serve under test runs them.
import { createHash } from 'node:crypto';
import type { Usage } from '../src/events/effect-results.js';
import { testRun, usage } from '../test/support/scripted-effects.js';
import { built } from './built.js';

const { catalogue } = await built<typeof import('../src/events/catalogue.js')>('src/events/catalogue.js');
const { JobRequested } =
  await built<typeof import('../src/events/job-events.js')>('src/events/job-events.js');
const { MACHINE_VERSION } = await built<typeof import('../src/events/versions.js')>('src/events/versions.js');
const { foldSteps } = await built<typeof import('../src/machines/fold.js')>('src/machines/fold.js');
const { stateName } = await built<typeof import('../src/machines/job-states.js')>(
  'src/machines/job-states.js',
);
const { jobUpdate } = await built<typeof import('../src/engine/job-runner.js')>('src/engine/job-runner.js');
const { loadEnv, jobSettingsFrom } = await built<typeof import('../src/env.js')>('src/env.js');
const { SqliteEventStore } = await built<typeof import('../src/store/sqlite/sqlite-event-store.js')>(
  'src/store/sqlite/sqlite-event-store.js',
);

type Catalogued = keyof typeof catalogue;

export const OWNER = 'acme';
export const REPO = 'widgets';
const AT = 1_750_000_000_000;

/** What a webhook needs to find parked job `n` (1-based). */
export interface ParkedJob {
  n: number;
  jobId: string;
  issue: number;
  pr: number;
  branch: string;
  headSha: string;
}

export function parkedJob(n: number): ParkedJob {
  return {
    n,
    jobId: `parked-${String(n).padStart(5, '0')}`,
    issue: n,
    pr: 10_000 + n,
    branch: `booty/issue-${n}`,
    headSha: createHash('sha1').update(`head ${n}`).digest('hex'),
  };
}

const stepped = (step: string, attempt: number, result: object, at: number) => ({
  type: 'StepSucceeded' as const,
  data: { step, attempt, result: { at, ...result } },
});

/** The domain events of job `n`, in log order, as { type, data }. */
export function parkedEvents(job: ParkedJob): { type: Catalogued; data: Record<string, unknown> }[] {
  const at = AT + job.n * 1000;
  const env = loadEnv({});
  const { type, ...requested } = JobRequested.parse({
    type: 'JobRequested',
    jobId: job.jobId,
    deliveryId: `label-${job.n}`,
    requestedAt: at,
    repo: { forge: 'github', owner: OWNER, name: REPO },
    issue: {
      number: job.issue,
      title: `Add an add() function (${job.n})`,
      body: 'Please add add(a, b).',
      url: `https://github.test/${OWNER}/${REPO}/issues/${job.issue}`,
    },
    triggerLabel: 'booty',
    sender: 'octocat',
    installationId: null,
    settings: { ...jobSettingsFrom(env), selfModification: false },
    run: 1,
    previous: null,
  });
  const changes = [
    { path: 'src/index.js', content: `export const add = (a, b) => a + b; // ${job.n}\n` },
    { path: 'test/index.test.js', content: 'test("adds", () => {});\n' },
  ];
  return [
    { type, data: requested },
    stepped(
      'prepare',
      0,
      {
        baseSha: 'a'.repeat(40),
        defaultBranch: 'main',
        branch: job.branch,
        config: {
          source: 'default',
          path: null,
          test: { command: 'npm test' },
          install: null,
          timeoutSeconds: 60,
          maxAttempts: 3,
          protectedPaths: [],
          sandbox: 'off',
        },
        comments: [],
      },
      at + 100,
    ),
    stepped('baseline', 0, testRun(true), at + 200),
    stepped(
      'analyze',
      0,
      {
        analysis: {
          summary: 'Add add()',
          changeKind: 'feat',
          filesToRead: [],
          filesToChange: ['src/index.js'],
          testsToAdd: ['test/index.test.js'],
          acceptanceCriteria: ['it adds'],
          risks: [],
        },
        usage: usage(1200),
      },
      at + 300,
    ),
    stepped('generate', 1, { changes, explanation: 'adds add()', usage: usage(2400) }, at + 400),
    stepped('apply', 1, { applied: changes, rejected: [], addedTests: ['test/index.test.js'] }, at + 500),
    stepped('test', 1, testRun(true), at + 600),
    stepped(
      'openPr',
      1,
      {
        number: job.pr,
        url: `https://github.test/${OWNER}/${REPO}/pull/${job.pr}`,
        nodeId: `PR_${job.pr}`,
        draft: true,
        headSha: job.headSha,
        created: true,
      },
      at + 700,
    ),
    stepped(
      'promote',
      1,
      { draft: false, ci: { sha: job.headSha, state: 'passed', total: 1, failing: [], rerunnable: [] } },
      at + 800,
    ),
  ];
}

/**
 * Writes `count` parked jobs into the database at `db`, each log in one commit with its read model,
 * its progress comment marked as caught up (a parked job that reported). Returns the jobs.
 */
export async function writeParkedJobs(db: string, count: number): Promise<ParkedJob[]> {
  const store = new SqliteEventStore(db);
  const jobs: ParkedJob[] = [];
  try {
    for (let n = 1; n <= count; n++) {
      const job = parkedJob(n);
      const events = parkedEvents(job);
      const steps = foldSteps(events);
      const last = steps.at(-1)!.snapshot;
      if (stateName(last) !== 'promoted')
        throw new Error(`parked bench: job ${n} folds to ${stateName(last)}, not promoted`);
      const rows = events.map((e, i) => {
        const snapshot = steps[i]!.snapshot;
        const usage = (e.data.result as { usage?: Usage } | undefined)?.usage;
        return {
          type: e.type,
          version: catalogue[e.type].version,
          data: e.data,
          state: stateName(snapshot),
          meta:
            i === 0
              ? { machineVersion: MACHINE_VERSION, deliveryId: `label-${n}` }
              : {
                  machineVersion: MACHINE_VERSION,
                  attempt: snapshot.context.attempt,
                  ...(usage ? { tokens: usageOf(usage) } : {}),
                },
        };
      });
      await store.append(job.jobId, 0, rows, { job: jobUpdate(last) });
      await store.markReported(job.jobId, rows.length);
      jobs.push(job);
    }
  } finally {
    await store.close();
  }
  return jobs;
}

function usageOf(u: Usage) {
  return {
    input: u.inputTokens,
    output: u.outputTokens,
    cacheRead: u.cacheReadTokens,
    cacheWrite: u.cacheWriteTokens,
  };
}
