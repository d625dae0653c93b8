import { branchesAt, readCommit } from './github-sim-git-objects.js';
import { githubTime } from './github-sim-json.js';
import { latestRuns } from './github-sim-json-ci.js';
import { nodeId, type SimRepo } from './github-sim-state.js';
import type {
  CheckStatus,
  Conclusion,
  SimCheckRun,
  SimCheckSuite,
  SimStatus,
  StatusState,
} from './github-sim-state-ci.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// The check and status records, kept as GitHub keeps them: one suite per App and commit, whose
// state follows the latest run of each name, and commit statuses appended per context.

/** The App's suite for a commit, made on first use with the commit and the branch at it. */
export async function suiteFor(
  world: SimWorld,
  repo: SimRepo,
  appId: number,
  sha: string,
  branch?: string,
): Promise<SimCheckSuite> {
  const known = repo.checkSuites.find((s) => s.appId === appId && s.headSha === sha);
  if (known) return known;
  const bare = bareOf(world, repo);
  const headCommit = await readCommit(bare, sha);
  const id = world.store.nextId();
  const suite: SimCheckSuite = {
    id,
    nodeId: nodeId('CS', id),
    appId,
    headSha: sha,
    headBranch: branch ?? (await branchesAt(bare, sha))[0] ?? null,
    headCommit,
    status: 'queued',
    conclusion: null,
    createdAt: githubTime(),
    updatedAt: githubTime(),
  };
  repo.checkSuites.push(suite);
  return suite;
}

export interface CheckRunInput {
  id?: number;
  name: string;
  status: CheckStatus;
  conclusion: Conclusion | null;
  detailsUrl: string | null;
  externalId: string | null;
  output?: { title?: string | null; summary?: string | null; text?: string | null };
  annotationsCount?: number;
}

export function addCheckRun(world: SimWorld, repo: SimRepo, suite: SimCheckSuite, input: CheckRunInput) {
  const id = input.id ?? world.store.nextId();
  const now = githubTime();
  const run: SimCheckRun = {
    id,
    nodeId: nodeId('CR', id),
    suiteId: suite.id,
    name: input.name,
    headSha: suite.headSha,
    status: input.status,
    conclusion: input.status === 'completed' ? input.conclusion : null,
    startedAt: input.status === 'queued' ? null : now,
    completedAt: input.status === 'completed' ? now : null,
    detailsUrl: input.detailsUrl,
    externalId: input.externalId,
    output: {
      title: input.output?.title ?? null,
      summary: input.output?.summary ?? null,
      text: input.output?.text ?? null,
      annotationsCount: input.annotationsCount ?? 0,
    },
  };
  repo.checkRuns.push(run);
  return run;
}

/** What a set of finished checks amounts to, by GitHub's precedence. */
export function overall(conclusions: (Conclusion | null)[]): Conclusion {
  for (const c of ['action_required', 'cancelled', 'timed_out', 'failure'] as const) {
    if (conclusions.includes(c)) return c;
  }
  return conclusions.length && conclusions.every((c) => c === 'skipped' || c === 'neutral')
    ? 'neutral'
    : 'success';
}

/** Brings a suite's state in line with its latest runs; true when this made it complete. */
export function settleSuite(repo: SimRepo, suite: SimCheckSuite): boolean {
  const runs = latestRuns(repo.checkRuns.filter((r) => r.suiteId === suite.id));
  const wasComplete = suite.status === 'completed';
  const status: CheckStatus = runs.every((r) => r.status === 'completed')
    ? 'completed'
    : runs.some((r) => r.status !== 'queued')
      ? 'in_progress'
      : 'queued';
  suite.status = status;
  suite.conclusion = status === 'completed' ? overall(runs.map((r) => r.conclusion)) : null;
  suite.updatedAt = githubTime();
  return !wasComplete && status === 'completed';
}

export function addStatus(
  world: SimWorld,
  repo: SimRepo,
  input: {
    sha: string;
    state: StatusState;
    context: string;
    description: string | null;
    targetUrl: string | null;
    creator: string;
  },
): SimStatus {
  const id = world.store.nextId();
  const status: SimStatus = {
    id,
    nodeId: nodeId('SC', id),
    ...input,
    createdAt: githubTime(),
    updatedAt: githubTime(),
  };
  repo.statuses.push(status);
  return status;
}
