import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  SimCheckRun,
  SimCheckSuite,
  SimCiScript,
  SimJob,
  SimStatus,
  SimWorkflow,
  SimWorkflowRun,
} from './github-sim-state-ci.js';
import { Role, SimReview, SimReviewComment } from './github-sim-state-conversation.js';

// The simulator's whole world as one JSON document in its directory, written after every change,
// so a restarted simulator (the demo resuming an interrupted run) carries on where it stood.

const Iso = z.string();

export const SimIssue = z.object({
  id: z.number(),
  nodeId: z.string(),
  number: z.number(),
  title: z.string(),
  body: z.string(),
  state: z.enum(['open', 'closed']),
  labels: z.array(z.string()),
  author: z.string(),
  createdAt: Iso,
  updatedAt: Iso,
  closedAt: Iso.nullable(),
  assignees: z.array(z.string()).default([]),
});
export type SimIssue = z.infer<typeof SimIssue>;

export const SimComment = z.object({
  id: z.number(),
  nodeId: z.string(),
  issueNumber: z.number(),
  body: z.string(),
  author: z.string(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type SimComment = z.infer<typeof SimComment>;

export const SimReaction = z.object({
  id: z.number(),
  /** The issue or PR itself, or for a comment's reaction the issue or PR the comment is on. */
  issueNumber: z.number(),
  subject: z.enum(['issue', 'issue_comment', 'pull_request_review_comment']).default('issue'),
  commentId: z.number().nullable().default(null),
  content: z.string(),
  author: z.string(),
  createdAt: Iso,
});
export type SimReaction = z.infer<typeof SimReaction>;

export const SimPull = z.object({
  id: z.number(),
  nodeId: z.string(),
  number: z.number(),
  title: z.string(),
  body: z.string(),
  head: z.string(),
  base: z.string(),
  headSha: z.string(),
  /** The base branch's commit when last read. */
  baseSha: z.string().default(''),
  draft: z.boolean(),
  state: z.enum(['open', 'closed']),
  author: z.string(),
  createdAt: Iso,
  updatedAt: Iso,
  closedAt: Iso.nullable().default(null),
  mergedAt: Iso.nullable().default(null),
  mergeCommitSha: z.string().nullable().default(null),
  mergedBy: z.string().nullable().default(null),
  /** The diff against the base when the head was last read, as GitHub counts it. */
  stats: z
    .object({ commits: z.number(), additions: z.number(), deletions: z.number(), changedFiles: z.number() })
    .default({ commits: 0, additions: 0, deletions: 0, changedFiles: 0 }),
  /** Reviews requested and not yet given: users' logins and teams' slugs. */
  requestedReviewers: z.array(z.string()).default([]),
  requestedTeams: z.array(z.string()).default([]),
  /** The fork its head branch lives in (`owner/name`), or null for a branch of this repository. */
  headRepo: z.string().nullable().default(null),
  /** On a fork's pull request: its author lets maintainers push to the branch. */
  maintainerCanModify: z.boolean().default(false),
});
export type SimPull = z.infer<typeof SimPull>;

export const SimRepo = z.object({
  id: z.number(),
  nodeId: z.string(),
  owner: z.string(),
  name: z.string(),
  defaultBranch: z.string(),
  /** Older state files have no times: the simulator's epoch stands in. */
  createdAt: Iso.default('2026-01-01T00:00:00Z'),
  pushedAt: Iso.default('2026-01-01T00:00:00Z'),
  nextNumber: z.number(),
  issues: z.array(SimIssue),
  comments: z.array(SimComment),
  reactions: z.array(SimReaction),
  pulls: z.array(SimPull),
  reviews: z.array(SimReview).default([]),
  reviewComments: z.array(SimReviewComment).default([]),
  /** Roles set by a test; anyone else reads a public repository, and its owner administers it. */
  roles: z.record(z.string(), Role).default({}),
  checkSuites: z.array(SimCheckSuite).default([]),
  checkRuns: z.array(SimCheckRun).default([]),
  statuses: z.array(SimStatus).default([]),
  workflows: z.array(SimWorkflow).default([]),
  workflowRuns: z.array(SimWorkflowRun).default([]),
  jobs: z.array(SimJob).default([]),
  ciScripts: z.array(SimCiScript).default([]),
  nextRunNumber: z.number().default(1),
  /** The repository this one is a fork of (`owner/name`), or null. */
  forkOf: z.string().nullable().default(null),
});
export type SimRepo = z.infer<typeof SimRepo>;
/** A repository as code builds it: the fields with defaults may be left out. */
export type NewSimRepo = z.input<typeof SimRepo>;

export const SimToken = z.object({
  token: z.string(),
  kind: z.enum(['pat', 'installation']),
  login: z.string(),
  installationId: z.number().nullable(),
  createdAt: Iso,
  expiresAt: Iso.nullable(),
});
export type SimToken = z.infer<typeof SimToken>;

export const SimApp = z.object({
  id: z.number(),
  slug: z.string(),
  publicKey: z.string(),
  installations: z.array(z.object({ id: z.number(), account: z.string() })),
  /** What an App registered from a manifest asked for; an App installed by a test has booty's. */
  name: z.string().optional(),
  owner: z.string().optional(),
  description: z.string().nullable().optional(),
  url: z.string().optional(),
  permissions: z.record(z.string(), z.string()).optional(),
  events: z.array(z.string()).optional(),
  webhookSecret: z.string().optional(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  createdAt: Iso.optional(),
});
export type SimApp = z.infer<typeof SimApp>;

/** One POST of a delivery to the hook, as GitHub's delivery API lists it (hook-delivery-item). */
export const SimDeliveryTry = z.object({
  /** The attempt's own id: what `POST /app/hook/deliveries/{id}/attempts` redelivers. */
  id: z.number(),
  at: Iso,
  redelivery: z.boolean(),
  /** The hook's HTTP status; 0 when it gave none (refused, reset, timed out), as GitHub records it. */
  statusCode: z.number(),
  /** GitHub's words for it: `OK`, `Invalid HTTP Response: 503`, `failed to connect to host`. */
  status: z.string(),
  durationMs: z.number(),
});
export type SimDeliveryTry = z.infer<typeof SimDeliveryTry>;

export const SimDelivery = z.object({
  /** The GUID (X-GitHub-Delivery), kept by every attempt and redelivery. */
  id: z.string(),
  event: z.string(),
  action: z.string().nullable(),
  payload: z.string(),
  attempts: z.number(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  at: Iso,
  /** Every POST to the hook, oldest first; a state file from before they were kept has none. */
  tries: z.array(SimDeliveryTry).default([]),
});
export type SimDelivery = z.infer<typeof SimDelivery>;

/** A manifest flow's temporary code: exchanged once, within an hour, for the App and its key. */
export const SimManifestCode = z.object({
  code: z.string(),
  appId: z.number(),
  /** The App's private key, handed out by the conversion and then forgotten, as GitHub does. */
  pem: z.string().nullable(),
  expiresAt: Iso,
});
export type SimManifestCode = z.infer<typeof SimManifestCode>;

export const SimState = z.object({
  version: z.literal(1),
  seq: z.number(),
  repos: z.record(z.string(), SimRepo),
  tokens: z.array(SimToken),
  apps: z.array(SimApp),
  deliveries: z.array(SimDelivery),
  manifestCodes: z.array(SimManifestCode).default([]),
});
export type SimState = z.infer<typeof SimState>;

export const emptyState = (): SimState => ({
  version: 1,
  seq: 1000,
  repos: {},
  tokens: [],
  apps: [],
  deliveries: [],
  manifestCodes: [],
});

/** Deliveries the simulator keeps for redelivery and for tests to read back, as GitHub keeps its recent ones. */
export const RECENT_DELIVERIES = 100;

/** A delivery but its payload, which never changes once made: what tells that the record changed. */
const fieldsOf = ({ payload: _, ...fields }: SimDelivery) => JSON.stringify(fields);

function parsedDelivery(line: string): SimDelivery | null {
  try {
    const parsed = SimDelivery.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // the line a crash cut short: only the last can be
  }
}

/**
 * The simulator's state on disk: `github-state.json` holds all but the webhook deliveries, which
 * `github-deliveries.jsonl` holds, one line each time a delivery is made or tried (the last line of
 * an id wins). Rewriting the state on every change with up to a hundred payloads in it cost about
 * half a second of CPU per job once fifty jobs shared one simulator; a line costs its own size.
 */
export class SimStore {
  readonly file: string;
  private readonly log: string;
  state: SimState;
  /** Each delivery as last written to the log (fieldsOf), to write only the ones that changed. */
  private readonly written = new Map<string, string>();
  /** The state as last written, deliveries aside. */
  private saved = '';
  /** The write save() put off (saveWithinMs), not yet made. */
  private pending: NodeJS.Timeout | null = null;

  constructor(
    dir: string,
    private readonly saveWithinMs = 0,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.file = path.join(dir, 'github-state.json');
    this.log = path.join(dir, 'github-deliveries.jsonl');
    this.state = fs.existsSync(this.file)
      ? SimState.parse(JSON.parse(fs.readFileSync(this.file, 'utf8')))
      : emptyState();
    // A state file from before the log holds its deliveries itself; the log's lines come after.
    const byId = new Map(this.state.deliveries.map((d) => [d.id, d]));
    const lines = fs.existsSync(this.log) ? fs.readFileSync(this.log, 'utf8').split('\n') : [];
    for (const delivery of lines.map(parsedDelivery)) if (delivery) byId.set(delivery.id, delivery);
    this.state.deliveries = [...byId.values()].slice(-RECENT_DELIVERIES);
    // The log starts again from what is kept, so it does not grow from one run to the next.
    const kept = this.state.deliveries.map((d) => `${JSON.stringify(d)}\n`).join('');
    fs.writeFileSync(`${this.log}.tmp`, kept);
    fs.renameSync(`${this.log}.tmp`, this.log);
    for (const d of this.state.deliveries) this.written.set(d.id, fieldsOf(d));
  }

  nextId(): number {
    this.state.seq += 1;
    return this.state.seq;
  }

  repo(owner: string, name: string): SimRepo | undefined {
    return this.state.repos[repoKey(owner, name)];
  }

  /**
   * Saves a change: at once by default, so a simulator killed any time after it answered is
   * started again on the folder with the change (as an interrupted `booty demo` is). With
   * `saveWithinMs`, once within that time for every change made meanwhile: the state is the whole
   * world's, so each write costs the size of every issue, pull request and comment in it, and two
   * hundred jobs on one simulator spent most of its CPU there, its answers slowing as its state
   * grew, which GitHub's do not. The benchmarks' simulators, never started again from their
   * folder, save so; close() saves what waits.
   */
  save() {
    if (this.saveWithinMs === 0) this.write();
    else this.pending ??= setTimeout(() => this.write(), this.saveWithinMs).unref();
  }

  /**
   * Writes the state through a temporary file, so a crash never leaves half a state behind, then
   * appends the deliveries that changed. In that order: a delivery's tries take their ids from the
   * state's sequence, which must not fall behind them.
   */
  write() {
    if (this.pending) clearTimeout(this.pending);
    this.pending = null;
    const text = JSON.stringify({ ...this.state, deliveries: [] });
    // A delivery made or tried saves again what the change before it saved: write only news.
    if (text !== this.saved) {
      const tmp = `${this.file}.tmp`;
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, this.file);
      this.saved = text;
    }
    let changed = '';
    for (const delivery of this.state.deliveries) {
      const fields = fieldsOf(delivery);
      if (this.written.get(delivery.id) === fields) continue;
      this.written.set(delivery.id, fields);
      changed += `${JSON.stringify(delivery)}\n`;
    }
    if (changed) fs.appendFileSync(this.log, changed);
  }
}

/** GitHub treats owner and repository names case-insensitively. */
export const repoKey = (owner: string, name: string) => `${owner}/${name}`.toLowerCase();

export const nodeId = (prefix: string, id: number) =>
  `${prefix}_kwDO${Buffer.from(String(id)).toString('base64url')}`;
