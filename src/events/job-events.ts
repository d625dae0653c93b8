import { z } from 'zod';
import { Ask, PersonPr } from './mention-events.js';

// The events that come from outside a job: a request to start it and a request to cancel it.
// Times are epoch milliseconds carried in the payload, so the machine never reads a clock.

/** The forges booty serves: where a job's issue, pull request and remote live. */
export const ForgeName = z.enum(['github', 'gitlab']);
export type ForgeName = z.infer<typeof ForgeName>;

/**
 * A repository on a forge: GitHub's owner and name, or GitLab's namespace (a group, its subgroups
 * included) and project path. Requests logged before GitLab (JobRequested v5 and older) name no
 * forge and are lifted to GitHub.
 */
export const RepoRef = z.object({
  forge: ForgeName,
  owner: z.string().min(1),
  name: z.string().min(1),
});
export type RepoRef = z.infer<typeof RepoRef>;

export const IssueRef = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
});
export type IssueRef = z.infer<typeof IssueRef>;

/** Settings fixed when the job is requested, so a replay decides exactly as the live run did. */
export const JobSettings = z.object({
  /** Used until the repository config says otherwise. */
  maxAttempts: z.number().int().min(1).max(10).default(3),
  /** Transient failures of one step retried before the job fails. */
  maxRetries: z.number().int().min(0).max(20).default(5),
  retryBaseMs: z.number().int().min(0).default(2_000),
  retryCapMs: z.number().int().min(0).default(60_000),
  /** Model tokens (input + output) one job may spend; null means no bound. */
  maxTokens: z.number().int().positive().nullable().default(null),
  /** Tokens a writer's `@booty continue` adds to a job parked at its budget (absent or null: the budget again). */
  budgetStep: z.number().int().positive().nullable().optional(),
  /** Dollars one job may spend on the model (BOOTY_MAX_USD_PER_JOB; absent or null: no bound). */
  maxUsd: z.number().positive().nullable().optional(),
  /** Dollars writers' `@booty continue` added to the cap; never in a request (absent: none). */
  usdAdded: z.number().min(0).optional(),
  /** The target is booty's own repository: the PR stays draft for a human. */
  selfModification: z.boolean().default(false),
});
export type JobSettings = z.infer<typeof JobSettings>;

export const JobRequested = z.object({
  type: z.literal('JobRequested'),
  jobId: z.string().min(1),
  repo: RepoRef,
  issue: IssueRef,
  triggerLabel: z.string().min(1),
  sender: z.string(),
  deliveryId: z.string().min(1),
  installationId: z.number().int().nullable(),
  requestedAt: z.number().int(),
  settings: JobSettings,
  /** The issue's how-manieth job: a relabel after a job finished starts a fresh attempt. */
  run: z.number().int().min(1).optional(),
  /** The issue's previous job and its pull request, which the new one links and never pushes onto. */
  /** The issue had the `booty:plan` label: the plan waits for a writer's approval (absent: no). */
  planApproval: z.boolean().optional(),
  /**
   * Whether the refine loop's controls apply (machine 5: a stall stops the job early, the budget
   * parks it); absent means they do. Requests logged before them (v3 and older) are lifted with
   * false, so their jobs fold as they ran.
   */
  loopControls: z.boolean().optional(),
  /**
   * Whether the stall rule counts new quality findings as improvement (machine 6); absent means it
   * does. Requests logged before (v4 and older) are lifted with false, so their jobs fold as they ran.
   */
  qualityProgress: z.boolean().optional(),
  previous: z
    .object({
      jobId: z.string(),
      pr: z.object({ number: z.number().int().positive(), url: z.string() }).nullable(),
    })
    .nullable()
    .optional(),
  /** A writer's `@booty` started the job, not the label: what they asked (machine 8). */
  ask: Ask.optional(),
  /** The job works on this pull request, which someone else opened (machine 8). */
  onPr: PersonPr.optional(),
  /**
   * Whether booty's rules as a collaborator apply (machine 8: red CI on a ready pull request is
   * re-run before it is demoted, `stop` is answered and leaves a ready one alone, `retry` with
   * nothing to retry is not taken); absent means they do. Requests logged before them (v5 and
   * older) are lifted with false, so their jobs fold as they ran.
   */
  collaborator: z.boolean().optional(),
  /**
   * Whether a pull request's draft state is read only from the deliveries that change it (machine
   * 9): a push's (`synchronize`) says the state as it was sent, maybe before booty's own promotion.
   * Absent means it is; requests logged before (v7 and older) are lifted with false, so their jobs
   * fold as they ran.
   */
  draftByAction: z.boolean().optional(),
});
export type JobRequested = z.infer<typeof JobRequested>;
export type JobRequestedInput = z.input<typeof JobRequested>;

/** A new job as a delivery (or `booty run`) asks for it: what the request says, before booty stamps it. */
export type JobRequest = Omit<
  JobRequestedInput,
  'type' | 'jobId' | 'requestedAt' | 'settings' | 'deliveryId'
>;

export const CancelReason = z.enum(['unlabeled', 'closed', 'operator']);

export const JobCancelled = z.object({
  type: z.literal('JobCancelled'),
  reason: CancelReason,
  sender: z.string(),
  deliveryId: z.string().nullable(),
  at: z.number().int(),
});
export type JobCancelled = z.infer<typeof JobCancelled>;

/** The repository as people name it: `owner/name` on GitHub, `group/project` on GitLab. */
export const repoName = (repo: Pick<RepoRef, 'owner' | 'name'>) => `${repo.owner}/${repo.name}`;

/**
 * The repository as the job index keys it: GitHub's as it always was (`owner/name`), another
 * forge's with its name in front (`gitlab:group/project`), so two forges' namesakes never share a job.
 */
export const repoKey = (repo: RepoRef) =>
  repo.forge === 'github' ? repoName(repo) : `${repo.forge}:${repoName(repo)}`;

/** The repository a key names (repoKey's inverse); a GitLab project's last segment is its path. */
export function repoFromKey(key: string): RepoRef {
  const prefixed = /^([a-z]+):(.+)$/.exec(key);
  const forge = prefixed ? ForgeName.parse(prefixed[1]) : 'github';
  const path = prefixed ? prefixed[2]! : key;
  const cut = path.lastIndexOf('/');
  return { forge, owner: path.slice(0, cut), name: path.slice(cut + 1) };
}

export const issueKey = (repo: RepoRef, issue: number) => `${repoKey(repo)}#${issue}`;
