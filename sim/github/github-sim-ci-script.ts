import type { SimRepo } from './github-sim-state.js';
import type { CiJob, CiResult, SimCiScript } from './github-sim-state-ci.js';

// The scripted CI a test sets up: for one commit, or for every new head of a branch, what the
// repository's workflow answers, head by head and attempt by attempt. `ciGreen` and `ciRed` build
// the usual answers; a list of them by attempt is a flaky check ([red, green]), a list by head is
// CI red until a later commit.

/** One answer, or one per attempt (the last holds for later re-runs). */
export type CiAnswer = CiResult | CiResult[];

export interface CiScriptInput {
  /** The commit it answers for; or `branch`, for every new head of that branch. */
  sha?: string;
  branch?: string;
  /** By head, in push order; the last holds for every later head. For a `sha`, one entry. */
  heads: CiAnswer[];
  /** 'at-once' (default): a run finishes as soon as it starts; 'on-demand': it waits for completeCi. */
  completes?: 'at-once' | 'on-demand';
  /** The workflow's name and file; default CI, .github/workflows/ci.yml. */
  workflow?: { name: string; path: string };
  /** A commit status posted beside the checks, as an outside CI would; null for none. Default `ci/simulated`. */
  statusContext?: string | null;
}

const CHECKOUT = { name: 'Run actions/checkout@v4', conclusion: 'success' as const, log: [] };

/** A passing workflow: each named job checks out and runs the tests. */
export function ciGreen(opts: { jobs?: string[]; log?: string[] } = {}): CiResult {
  return {
    jobs: (opts.jobs ?? ['test']).map((name) => ({
      name,
      steps: [CHECKOUT, { name: 'Run npm test', conclusion: 'success', log: opts.log ?? ['ok'] }],
    })),
  };
}

/**
 * A failing workflow: `step` of `job` fails with these output lines (GitHub adds the exit code
 * line); the steps after it are skipped, and the other `passing` jobs pass.
 */
export function ciRed(opts: {
  job?: string;
  step?: string;
  log: string[];
  exitCode?: number;
  passing?: string[];
}): CiResult {
  const failing: CiJob = {
    name: opts.job ?? 'test',
    steps: [
      CHECKOUT,
      {
        name: opts.step ?? 'Run npm test',
        conclusion: 'failure',
        log: [...opts.log, `##[error]Process completed with exit code ${opts.exitCode ?? 1}.`],
      },
    ],
  };
  return { jobs: [failing, ...ciGreen({ jobs: opts.passing ?? [] }).jobs] };
}

export function scriptFrom(id: number, input: CiScriptInput): SimCiScript {
  if ((input.sha === undefined) === (input.branch === undefined)) {
    throw new Error('a CI script is for a sha or for a branch, exactly one of them');
  }
  if (!input.heads.length) throw new Error('a CI script needs an answer for at least one head');
  return {
    id,
    sha: input.sha ?? null,
    branch: input.branch ?? null,
    heads: input.heads.map((a) => (Array.isArray(a) ? a : [a])),
    completes: input.completes ?? 'at-once',
    workflow: input.workflow ?? { name: 'CI', path: '.github/workflows/ci.yml' },
    statusContext: input.statusContext === undefined ? 'ci/simulated' : input.statusContext,
    seen: [],
  };
}

/** The newest script for the commit, else the newest for its branch; the head's answers by attempt. */
export function planFor(
  repo: SimRepo,
  sha: string,
  branch: string,
): { script: SimCiScript; plan: CiResult[] } | null {
  const scripts = [...repo.ciScripts].reverse();
  const script = scripts.find((s) => s.sha === sha) ?? scripts.find((s) => s.branch === branch);
  if (!script) return null;
  if (!script.seen.includes(sha)) script.seen.push(sha);
  const index = Math.min(script.seen.indexOf(sha), script.heads.length - 1);
  return { script, plan: script.heads[index]! };
}
