import { completeRun, startCi } from './github-sim-ci.js';
import { type CiScriptInput, scriptFrom } from './github-sim-ci-script.js';
import { branchesAt } from './github-sim-git-objects.js';
import { jobLog } from './github-sim-job-log.js';
import type { SimRepo } from './github-sim-state.js';
import type { SimWorkflowRun } from './github-sim-state-ci.js';
import { bareOf, type SimWorld } from './github-sim-world.js';

// The scripted CI, as a test drives it: say what CI answers for a commit or a branch's heads, let
// runs that wait finish, start a run by hand, and read back runs, checks, statuses and logs.

export function ciApi(
  world: SimWorld,
  { repoOrThrow }: { repoOrThrow(owner: string, name: string): SimRepo },
) {
  return {
    /**
     * What CI answers from now on for a commit (`sha`) or for every new head of a `branch` that a PR
     * runs CI on (opened, pushed to, reopened): e.g. `{ branch, heads: [ciRed(...), ciGreen()] }` is
     * red until a later commit, `{ branch, heads: [[ciRed(...), ciGreen()]] }` a flaky check that
     * passes on re-run. The newest script for a commit wins over one for its branch.
     */
    scriptCi(owner: string, name: string, script: CiScriptInput): number {
      const repo = repoOrThrow(owner, name);
      const made = scriptFrom(world.store.nextId(), script);
      repo.ciScripts.push(made);
      world.store.save();
      return made.id;
    },

    /** Finishes the runs waiting (script `completes: 'on-demand'`), all or a commit's; resolves with them. */
    async completeCi(owner: string, name: string, opts: { sha?: string } = {}): Promise<SimWorkflowRun[]> {
      const repo = repoOrThrow(owner, name);
      await world.background.settled(); // runs still being queued finish queuing first
      const waiting = repo.workflowRuns.filter(
        (r) => r.status !== 'completed' && (opts.sha === undefined || r.headSha === opts.sha),
      );
      for (const run of waiting) await completeRun(world, repo, run);
      return structuredClone(waiting);
    },

    /** Runs the script for a commit by hand, as a push to a branch without a PR would (`event: push`). */
    async runCi(owner: string, name: string, input: { sha: string; branch?: string; actor?: string }) {
      const repo = repoOrThrow(owner, name);
      const branch =
        input.branch ?? (await branchesAt(bareOf(world, repo), input.sha))[0] ?? repo.defaultBranch;
      const run = await startCi(world, repo, {
        sha: input.sha,
        branch,
        event: 'push',
        actor: input.actor ?? repo.owner,
        title: `Push to ${branch}`,
      });
      if (!run) throw new Error(`no CI script answers for ${input.sha} on ${branch}`);
      return structuredClone(run);
    },

    /** The CI scripts set so far, oldest first (with the heads each has seen). */
    ciScripts: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).ciScripts),
    workflowRuns: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).workflowRuns),
    jobs: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).jobs),
    checkSuites: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).checkSuites),
    checkRuns: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).checkRuns),
    statuses: (owner: string, name: string) => structuredClone(repoOrThrow(owner, name).statuses),
    /** A job's log, as the signed link serves it. */
    jobLog(owner: string, name: string, jobId: number): string {
      const job = repoOrThrow(owner, name).jobs.find((j) => j.id === jobId);
      if (!job) throw new Error(`no job ${jobId}`);
      return jobLog(job);
    },
  };
}
