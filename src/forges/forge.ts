import type { z } from 'zod';
import type { ConversationEvent, FeedbackPlace, ReviewComment } from '../events/conversation-events.js';
import type { CodeReference, DependencyChange, IssueComment, PullRequest } from '../events/effect-results.js';
import type { CancelReason, IssueRef, JobRequest, RepoRef } from '../events/job-events.js';
import type { PersonPr } from '../events/mention-events.js';
import type { EffectImpl } from '../machines/effect-contract.js';
import type { EffectInput, JobContext } from '../machines/job-context.js';

// The forge port: what booty needs from the place where issues and pull requests live, in booty's
// own words. Intake reads deliveries through it, effects act through it, and only src/main picks an
// adapter (src/forges/github/ today). Nothing here names GitHub: a second forge is a second folder
// beside github/ that implements this file.

/** The fork of a pull request whose fork was deleted: booty can neither read nor push its branch. */
export const GONE_FORK = 'unknown/fork';

/** A webhook delivery as it came in, before anything is trusted. */
export interface RawDelivery {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The exact bytes: signatures cover them, so nothing parses them first. */
  body: Buffer;
}

/** A delivery as the forge names it: its id (the dedupe key), its event and action. */
export interface Delivery {
  id: string;
  event: string;
  action: string | null;
}

/** Where a delivery about a job's PR, branch or issue finds its job. */
export interface JobTarget {
  pr?: number | null;
  branch?: string | null;
  issue?: number | null;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Something happened to a job's PR, its branch, or (for a comment) its issue. */
export interface WakeIntent {
  kind: 'wake';
  repo: RepoRef;
  /** How to find the job: its PR's number, its branch, or its issue. */
  target: JobTarget;
  event: DistributiveOmit<ConversationEvent, 'deliveryId' | 'at'>;
}

/**
 * Where no job waits, a writer's `@booty <request or question>` starts one: the issue it was said
 * on, or the pull request (read from the forge before the job starts, as its payload does not say
 * where its branch lives).
 */
export interface JobStart {
  issue: IssueRef;
  /** The pull request it was said on, when it was said on one. */
  pr: number | null;
  triggerLabel: string;
  planApproval: boolean;
}

/** A wake-up, with what intake must still ask the forge before the job hears it. */
export interface ConversationIntent extends WakeIntent {
  needs: {
    /** Who spoke: only people with write access steer booty. */
    writer: string | null;
    installationId: number | null;
    /** The review whose comments the event carries, read from the forge before it is appended. */
    reviewComments: { pr: number; reviewId: number } | null;
    /** Where the 👀 goes once the event is accepted. */
    react: { place: FeedbackPlace; commentId: number } | null;
    /** A request or question with no job to hear it starts one; null where it may not (a closed issue). */
    start?: JobStart | null;
  };
}

/**
 * What a writer is told about a call on booty that it cannot take where it was made (on GitLab, a
 * merge request booty did not open): said once per comment, and never to a reader.
 */
export interface WriterAnswer {
  repo: RepoRef;
  on: { pr?: number | null; issue?: number | null };
  writer: string;
  commentId: number;
  text: string;
}

/** What a delivery asks of booty. */
export type Intent =
  | { kind: 'request'; request: JobRequest }
  | { kind: 'cancel'; repo: RepoRef; issue: number; reason: z.infer<typeof CancelReason>; sender: string }
  | WakeIntent
  | { kind: 'ignore'; reason: string; answer?: WriterAnswer };

/** A delivery read and verified by its forge: what it is, and what it asks. */
export interface ReadDelivery {
  delivery: Delivery;
  intent: Exclude<Intent, { kind: 'wake' }> | ConversationIntent;
  /** The forge's installation the delivery came through (a GitHub App's), for the questions asked of it. */
  installationId: number | null;
}

/** The settings that decide what a delivery asks: the label, the handle, the repositories served. */
export interface IntakeConfig {
  triggerLabel: string;
  /** How people call on booty (`@handle`): the App's name on the forge, or BOOTY_HANDLE. */
  handle: () => string;
  /** The current secret first, then the previous one while a rotation is under way. */
  secrets: string[];
  /** Whether a repository (owner/name) may get jobs; BOOTY_REPOS empty allows all. */
  isAllowedRepo: (fullName: string) => boolean;
  /** Whether a repository is booty's own, whose PRs stay draft. */
  isSelfRepo: (fullName: string) => boolean;
}

/** Reads deliveries: verifies them (signature, headers, body) and classifies them. Throws booty's errors. */
export interface ForgeWebhooks {
  /** The largest body the route takes. */
  readonly maxBytes: number;
  /** The header that names a delivery, for the request's log lines before it is verified. */
  readonly idHeader: string;
  readonly eventHeader: string;
  read(raw: RawDelivery, config: IntakeConfig): Promise<ReadDelivery>;
}

/** What intake asks the forge about a conversation event before a job hears it. */
export interface ConversationGate {
  isWriter(repo: RepoRef, installationId: number | null, login: string): Promise<boolean>;
  reviewComments(
    repo: RepoRef,
    installationId: number | null,
    pr: number,
    reviewId: number,
  ): Promise<ReviewComment[]>;
  /** For a review, `reviewComments` are its comments' ids: a review itself may take no reaction. */
  react(
    repo: RepoRef,
    installationId: number | null,
    place: FeedbackPlace,
    commentId: number,
    reviewComments: number[],
    /** Where the comment is: GitLab names a note by its issue or MR as well as its id. */
    target?: JobTarget,
  ): Promise<void>;
  replyToReader(
    repo: RepoRef,
    installationId: number | null,
    target: { pr?: number | null; issue?: number | null },
    login: string,
    commentId: number,
  ): Promise<void>;
  /** Who merged the pull request, or null while it is not merged. */
  mergedBy(repo: RepoRef, installationId: number | null, pr: number): Promise<string | null>;
  /** A pull request as a job started on it needs it (a deleted fork as GONE_FORK); null when it is not open. */
  pullRequest(repo: RepoRef, installationId: number | null, pr: number): Promise<PersonPr | null>;
  /** Tells a writer, once per comment, why their command did nothing. */
  answerIgnored(
    repo: RepoRef,
    installationId: number | null,
    target: { pr?: number | null; issue?: number | null },
    login: string,
    commentId: number,
    why: string,
  ): Promise<void>;
}

/** A round's answer to its questions, read at `commit`; `answered` is false when the budget kept booty from asking. */
export interface QuestionReply {
  commit: string;
  answered: boolean;
  answer: string;
  references: CodeReference[];
}

/**
 * A review comment on the pull request that holds a suggestion block, as the forge has it now:
 * the lines it replaces (`startLine`..`line`, on the side given, at `commitId`); `line` is null
 * when the comment is outdated.
 */
export interface SuggestionComment {
  id: number;
  author: string;
  body: string;
  path: string;
  line: number | null;
  startLine: number | null;
  side: 'LEFT' | 'RIGHT';
  commitId: string;
}

/** An issue as `booty run` starts a job from it. */
export interface IssueDetails extends IssueRef {
  state: 'open' | 'closed';
  labels: string[];
  author: string;
}

/** The job's effects on the forge: each finds before it creates, so a re-run after a crash repeats nothing. */
export interface ForgeEffects {
  /** The draft PR from the branch the workspace pushed (`headSha`), with what the change does to dependencies. */
  openDraftPr(
    input: EffectInput,
    pushed: { headSha: string; dependencies?: DependencyChange[]; branchCreated?: boolean },
  ): Promise<Omit<PullRequest, 'at'>>;
  promotePr: EffectImpl<'promotePr'>;
  readCi: EffectImpl<'readCi'>;
  rerunCi: EffectImpl<'rerunCi'>;
  demotePr: EffectImpl<'demotePr'>;
  postPlan: EffectImpl<'postPlan'>;
  escalate: EffectImpl<'escalate'>;
  /** Every request of the round hears back where it was made; `commit` is what the round pushed, if anything. */
  answerRound(
    job: JobContext,
    outcome: { commit: string | null; note: string | null },
  ): Promise<{ replies: number }>;
  /** The pull request's review comments that hold a suggestion block, oldest first. */
  suggestions(job: JobContext): Promise<SuggestionComment[]>;
  /** Each question of the round gets its answer where it was asked, once. */
  answerQuestions(job: JobContext, answer: QuestionReply): Promise<{ replies: number }>;
  /** The issue's discussion, without booty's own comments, for the model's context. */
  listIssueComments(job: Pick<JobContext, 'repo' | 'issue' | 'installationId'>): Promise<IssueComment[]>;
  getIssue(repo: RepoRef, number: number, installationId?: number | null): Promise<IssueDetails>;
}

/** The job whose comment it is, and where: as much as a damaged job's read model still tells. */
export interface ProgressTarget {
  jobId: string;
  repo: RepoRef;
  issue: { number: number };
  installationId: number | null;
}

/** The job's own pull request, for its body. */
export interface PrBodyTarget extends ProgressTarget {
  pr: number;
}

/**
 * The record people read of a job: its one progress comment, found again by its hidden marker, and
 * the body of the pull request booty opened (a merge request's description on GitLab).
 */
export interface ProgressComments {
  /** 👀 on the issue that asked. Repeating it is harmless. */
  acknowledge(job: ProgressTarget): Promise<void>;
  /** Writes the body into the job's comment (the known one, else the one its marker finds, else a new one). */
  write(
    job: ProgressTarget,
    body: string,
    known: { id: number; body: string } | null,
  ): Promise<{ id: number; body: string }>;
  /** The pull request's body as it stands, '' when it has none. */
  readPrBody(job: PrBodyTarget): Promise<string>;
  /** Replaces the pull request's body; writing the body it has changes nothing. */
  updatePrBody(job: PrBodyTarget, body: string): Promise<void>;
}

/** Where the workspace clones from and pushes to, and with what. */
export interface RepoRemote {
  url(repo: RepoRef): string;
  credentials(
    job: Pick<JobContext, 'repo' | 'installationId'>,
  ): Promise<{ username: string; password: string }>;
}

/** One attempt at a delivery, as the forge's own delivery log lists it. */
export interface SentDelivery {
  /** The attempt: what a redelivery names. */
  attempt: number;
  /** The delivery's id, the one every attempt carries and booty records (GitHub's GUID). */
  id: string;
  /** When it was sent, on the forge's clock (epoch ms). */
  at: number;
  /** The HTTP status booty answered; 0 when there was no answer (refused, reset, timed out). */
  statusCode: number;
  /** The forge's word for how it went, for a log line. */
  status: string;
  event: string;
  action: string | null;
}

/**
 * The forge's log of what it sent, for catching up on deliveries booty missed while it was down
 * (src/intake/delivery-catch-up.ts). Not every forge has one.
 */
export interface DeliveryHistory {
  /** Every attempt sent at or after `since` (epoch ms, the forge's clock), newest first. */
  list(since: number): Promise<SentDelivery[]>;
  /** Asks the forge to send an attempt's delivery again. */
  redeliver(attempt: number): Promise<void>;
  /** Whether a delivery of this event and action could give a job work (most of a backlog is CI noise). */
  mayGiveWork(event: string, action: string | null): boolean;
  /** The forge refused this one redelivery (gone, refused), not every one (a rate limit, an outage). */
  refusedAlone(err: unknown): boolean;
  /** A failed look in one line, with what to do. */
  explain(err: unknown): string;
  /** Shutdown: aborts a request under way. */
  stop(): void;
}

/** One forge, as booty's parts use it. */
export interface Forge {
  /** How the log and the routes name it. */
  readonly name: string;
  /** How people call on booty here: `@handle`. */
  handle(): string;
  /** Reads who booty is on the forge (an App's name), once, at start; resolves with the handle. */
  identify(): Promise<string>;
  readonly webhooks: ForgeWebhooks;
  readonly conversation: ConversationGate;
  readonly effects: ForgeEffects;
  readonly progress: ProgressComments;
  readonly remote: RepoRemote;
  /** Whether booty's credentials can do its work there (GitLab: the token's scopes); throws naming what is wrong. */
  readonly checkAccess?: () => Promise<void>;
  /** Null when the forge keeps no log of its deliveries, or booty cannot read it (a token, not an App). */
  readonly history: DeliveryHistory | null;
  /** Shutdown: every request under way is aborted, and new ones are refused. */
  stop(): void;
}
