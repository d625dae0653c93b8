import { z } from 'zod';

// The records of CI on a commit, as GitHub keeps them: check suites (one per App and commit) holding
// check runs, commit statuses by context, and GitHub Actions workflow runs whose jobs are the check
// runs of the Actions suite (a job and its check run share an id, as on GitHub). A CI script says
// what the simulated CI answers for a commit or for every new head of a branch.

const Iso = z.string();

export const Conclusion = z.enum([
  'success',
  'failure',
  'neutral',
  'cancelled',
  'skipped',
  'timed_out',
  'action_required',
  'stale',
]);
export type Conclusion = z.infer<typeof Conclusion>;
export const CheckStatus = z.enum(['queued', 'in_progress', 'completed']);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** A commit as a check suite or workflow run shows it (GitHub's simple-commit). */
export const SimCommit = z.object({
  id: z.string(),
  treeId: z.string(),
  message: z.string(),
  timestamp: Iso,
  author: z.object({ name: z.string(), email: z.string() }),
  committer: z.object({ name: z.string(), email: z.string() }),
});
export type SimCommit = z.infer<typeof SimCommit>;

export const SimCheckSuite = z.object({
  id: z.number(),
  nodeId: z.string(),
  appId: z.number(),
  headSha: z.string(),
  headBranch: z.string().nullable(),
  headCommit: SimCommit,
  status: CheckStatus,
  conclusion: Conclusion.nullable(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type SimCheckSuite = z.infer<typeof SimCheckSuite>;

export const SimCheckRun = z.object({
  id: z.number(),
  nodeId: z.string(),
  suiteId: z.number(),
  name: z.string(),
  headSha: z.string(),
  status: CheckStatus,
  conclusion: Conclusion.nullable(),
  startedAt: Iso.nullable(),
  completedAt: Iso.nullable(),
  detailsUrl: z.string().nullable(),
  externalId: z.string().nullable(),
  output: z.object({
    title: z.string().nullable(),
    summary: z.string().nullable(),
    text: z.string().nullable(),
    annotationsCount: z.number(),
  }),
});
export type SimCheckRun = z.infer<typeof SimCheckRun>;

export const StatusState = z.enum(['error', 'failure', 'pending', 'success']);
export type StatusState = z.infer<typeof StatusState>;

export const SimStatus = z.object({
  id: z.number(),
  nodeId: z.string(),
  sha: z.string(),
  state: StatusState,
  context: z.string(),
  description: z.string().nullable(),
  targetUrl: z.string().nullable(),
  creator: z.string(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type SimStatus = z.infer<typeof SimStatus>;

export const SimWorkflow = z.object({
  id: z.number(),
  nodeId: z.string(),
  name: z.string(),
  path: z.string(),
  createdAt: Iso,
});
export type SimWorkflow = z.infer<typeof SimWorkflow>;

/** One step of a scripted job: its output lines, and whether it passed. */
export const CiStep = z.object({
  name: z.string(),
  conclusion: z.enum(['success', 'failure', 'skipped']),
  log: z.array(z.string()),
});
export type CiStep = z.infer<typeof CiStep>;

export const CiJob = z.object({ name: z.string(), steps: z.array(CiStep) });
export type CiJob = z.infer<typeof CiJob>;

/** What one attempt of a workflow run does: its jobs; it fails when a step fails. */
export const CiResult = z.object({ jobs: z.array(CiJob).min(1) });
export type CiResult = z.infer<typeof CiResult>;

export const SimJobStep = CiStep.extend({
  number: z.number(),
  status: CheckStatus,
  startedAt: Iso.nullable(),
  completedAt: Iso.nullable(),
});
export type SimJobStep = z.infer<typeof SimJobStep>;

export const SimJob = z.object({
  id: z.number(),
  nodeId: z.string(),
  runId: z.number(),
  attempt: z.number(),
  name: z.string(),
  status: CheckStatus,
  conclusion: Conclusion.nullable(),
  steps: z.array(SimJobStep),
  createdAt: Iso,
  startedAt: Iso.nullable(),
  completedAt: Iso.nullable(),
});
export type SimJob = z.infer<typeof SimJob>;

export const SimWorkflowRun = z.object({
  id: z.number(),
  nodeId: z.string(),
  workflowId: z.number(),
  suiteId: z.number(),
  runNumber: z.number(),
  attempt: z.number(),
  event: z.string(),
  headSha: z.string(),
  headBranch: z.string(),
  headCommit: SimCommit,
  displayTitle: z.string(),
  actor: z.string(),
  triggeringActor: z.string(),
  status: CheckStatus,
  conclusion: Conclusion.nullable(),
  /** The results by attempt, from the script; the last holds for later attempts. */
  plan: z.array(CiResult),
  completes: z.enum(['at-once', 'on-demand']),
  statusContext: z.string().nullable(),
  createdAt: Iso,
  updatedAt: Iso,
  runStartedAt: Iso,
});
export type SimWorkflowRun = z.infer<typeof SimWorkflowRun>;

export const SimCiScript = z.object({
  id: z.number(),
  sha: z.string().nullable(),
  branch: z.string().nullable(),
  /** Per head, in push order (the last holds for later heads); per head, the results by attempt. */
  heads: z.array(z.array(CiResult).min(1)).min(1),
  /** 'at-once': runs finish as soon as they start; 'on-demand': they wait for completeCi. */
  completes: z.enum(['at-once', 'on-demand']),
  workflow: z.object({ name: z.string(), path: z.string() }),
  statusContext: z.string().nullable(),
  /** The heads this script has answered, in order, so a re-run of an old head keeps its place. */
  seen: z.array(z.string()),
});
export type SimCiScript = z.infer<typeof SimCiScript>;
