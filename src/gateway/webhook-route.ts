import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Intent, NOTHING_NEW, type SubmitResult, type Supervisor } from '../engine/supervisor.js';
import { BootyError } from '../errors.js';
import type { FeedbackPlace, ReviewComment } from '../events/conversation-events.js';
import type { RepoRef } from '../events/job-events.js';
import { issueKey } from '../events/job-events.js';
import { classifyDelivery } from '../forges/github/classify.js';
import type { ConversationIntent } from '../forges/github/classify-conversation.js';
import { isBootysOwn } from '../forges/github/markers.js';
import { checkSignature } from '../forges/github/signature.js';
import { decodeWebhookBody, MAX_WEBHOOK_BYTES } from '../forges/github/webhook-body.js';
import type { GatewayConfig } from './gateway-config.js';
import type { GatewayMetrics } from './metrics.js';

// POST /webhooks. Verify, classify, record and reply in one request; the job runs after the reply.
// The supervisor records the delivery id and creates or cancels the job in one transaction, so a
// repeated delivery, however many arrive at once, starts nothing twice.

export interface WebhookDeps {
  config: GatewayConfig;
  supervisor: Supervisor;
  metrics: GatewayMetrics;
  /** Who may steer booty, a review's comments, the 👀: GitHub at webhook time. Absent, everyone may. */
  conversation?: ConversationGate;
}

/** What the route asks GitHub about a conversation event before the job hears it. */
export interface ConversationGate {
  isWriter(repo: RepoRef, installationId: number | null, login: string): Promise<boolean>;
  reviewComments(
    repo: RepoRef,
    installationId: number | null,
    pr: number,
    reviewId: number,
  ): Promise<ReviewComment[]>;
  /** For a review, `reviewComments` are its comments' ids: GitHub has no reactions on a review itself. */
  react(
    repo: RepoRef,
    installationId: number | null,
    place: FeedbackPlace,
    commentId: number,
    reviewComments: number[],
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

/** The 👀 must land within GitHub's wait for the webhook reply (10 s); past this booty stops waiting for it. */
const REACT_WAIT_MS = 3000;

const DeliveryId = z.string().trim().min(1).max(200);
const EventName = z.string().regex(/^[a-z_]{1,64}$/, 'is not a GitHub event name');

export async function webhookRoutes(app: FastifyInstance, deps: WebhookDeps) {
  // The raw bytes, whatever the content type: the signature covers them, so nothing parses first.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_WEBHOOK_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  app.post(
    deps.config.webhookPath,
    {
      bodyLimit: MAX_WEBHOOK_BYTES,
      // The request's own logger carries the delivery id and event from the start, so every line
      // about it (errors included) has them, without a second child logger on the hot path.
      childLoggerFactory: (logger, bindings, options, raw) =>
        logger.child(
          {
            ...bindings,
            deliveryId: clip(raw.headers['x-github-delivery']),
            event: clip(raw.headers['x-github-event']),
          },
          options,
        ),
    },
    (request, reply) => receive(request, reply, deps),
  );
}

/** Headers are not yet verified when the logger is made: keep what they add to a line short. */
const clip = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value.slice(0, 100) : undefined;

async function receive(request: FastifyRequest, reply: FastifyReply, deps: WebhookDeps) {
  const { config, supervisor, metrics } = deps;
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const text = raw.toString('utf8');
  const check = await checkSignature({
    body: text,
    signature: header(request, 'x-hub-signature-256'),
    secrets: config.secrets,
  });
  if (!check.ok) throw new BootyError('BOOTY_E_WEBHOOK_SIGNATURE', { reason: check.reason });

  const deliveryId = requiredHeader(request, 'x-github-delivery', DeliveryId);
  const event = requiredHeader(request, 'x-github-event', EventName);

  const payload = decodeWebhookBody(text, request.headers['content-type']);
  const classified = classifyDelivery(event, payload, config);
  const { action } = classified;
  const intent =
    classified.intent.kind === 'wake'
      ? await vetted(classified.intent, deps, request)
      : classified.intent.kind === 'cancel'
        ? await closedByMerge(classified.intent, installationOf(payload), deps, request)
        : classified.intent;
  const delivery = { id: deliveryId, event, action };
  const result =
    intent.kind === 'ignore'
      ? await supervisor.ignore(delivery, intent.reason)
      : await supervisor.submit(delivery, intent);
  metrics.countDelivery(result.outcome);
  // A redelivery after a crash may find its event logged but never acknowledged: 👀 is idempotent.
  if ((result.outcome === 'woke' || result.outcome === 'duplicate') && intent.kind === 'wake')
    await acknowledge(intent as ConversationIntent, deps, request);
  if (result.outcome === 'ignored' && intent.kind === 'wake')
    await answerIgnored(intent as ConversationIntent, result.reason, deps, request);
  const { status, body } = replyFor(result, intent);
  // Most deliveries an App receives start nothing; the deliveries table keeps them all, so they log
  // at debug and the ones that touch a job at info, from a child logger with the job id.
  if (result.outcome === 'ignored')
    request.log.debug({ action, outcome: result.outcome, reason: result.reason }, 'delivery');
  else {
    const jobId = 'jobId' in result ? result.jobId : 'jobIds' in result ? result.jobIds.join(',') : undefined;
    (jobId ? request.log.child({ jobId }) : request.log).info(
      { action, outcome: result.outcome },
      'delivery',
    );
  }
  return reply.code(status).send(body);
}

/**
 * A conversation event, checked before the job hears it: a person who may not write to the
 * repository is answered and ignored, and a review carries its comments as GitHub has them now.
 */
async function vetted(
  intent: ConversationIntent,
  deps: WebhookDeps,
  request: FastifyRequest,
): Promise<ConversationIntent | Exclude<Intent, { kind: 'wake' }>> {
  const { conversation, supervisor } = deps;
  const { writer, installationId, reviewComments } = intent.needs;
  if (!conversation || !writer) return intent;
  const job = await supervisor.jobFor(intent.repo, intent.target);
  if (!job) return { kind: 'ignore', reason: 'no unfinished job for this pull request or issue' };
  // A review's comments are read before its author is checked: on GitHub booty's own reply in a
  // thread is a review of its own, and booty neither answers nor steers itself.
  const event = intent.event;
  if (reviewComments && event.type === 'FeedbackReceived') {
    const listed = await conversation.reviewComments(
      intent.repo,
      installationId,
      reviewComments.pr,
      reviewComments.reviewId,
    );
    const comments = listed.filter((c) => !isBootysOwn(c.body));
    if (!event.body.trim() && comments.length === 0)
      return { kind: 'ignore', reason: 'the review says nothing' };
    intent = { ...intent, event: { ...event, comments } };
  }
  if (!(await conversation.isWriter(intent.repo, installationId, writer))) {
    const commentId = intent.needs.react?.commentId ?? 0;
    await conversation
      .replyToReader(
        intent.repo,
        installationId,
        // Answered where they wrote: the PR, or the issue (a target without either is the PR's).
        intent.target.issue
          ? { issue: intent.target.issue }
          : { pr: intent.target.pr ?? job.pr, issue: job.issue },
        writer,
        commentId,
      )
      .catch((err: unknown) => request.log.warn({ err }, 'could not answer a reader'));
    return {
      kind: 'ignore',
      reason: `${writer} has no write access to ${intent.repo.owner}/${intent.repo.name}`,
    };
  }
  return intent;
}

/**
 * Merging a PR that says "Closes #n" closes the issue too, and GitHub does not promise which
 * webhook comes first. An issue closed while its job's PR is merged is that merge, not a cancel.
 */
async function closedByMerge(
  intent: Extract<Intent, { kind: 'cancel' }>,
  installationId: number | null,
  deps: WebhookDeps,
  request: FastifyRequest,
): Promise<Intent> {
  if (intent.reason !== 'closed' || !deps.conversation) return intent;
  const job = await deps.supervisor.jobFor(intent.repo, { issue: intent.issue });
  if (job?.pr == null) return intent;
  const mergedBy = await deps.conversation
    .mergedBy(intent.repo, installationId, job.pr)
    .catch((err: unknown) => {
      request.log.warn({ err }, 'could not read whether the pull request was merged; the job is cancelled');
      return null;
    });
  if (mergedBy === null) return intent;
  const merged: ConversationIntent = {
    kind: 'wake',
    repo: intent.repo,
    target: { pr: job.pr },
    event: { type: 'PrClosed', merged: true, sender: mergedBy },
    needs: { writer: null, installationId, reviewComments: null, react: null },
  };
  return merged;
}

const installationOf = (payload: unknown): number | null => {
  const id = (payload as { installation?: { id?: unknown } } | null)?.installation?.id;
  return typeof id === 'number' ? id : null;
};

/** 👀 on what the job accepted, within the webhook's time; a failure is logged, never the reply's. */
async function acknowledge(intent: ConversationIntent, deps: WebhookDeps, request: FastifyRequest) {
  const react = intent.needs.react;
  if (!deps.conversation || !react) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, REACT_WAIT_MS);
  });
  await Promise.race([
    deps.conversation
      .react(
        intent.repo,
        intent.needs.installationId,
        react.place,
        react.commentId,
        intent.event.type === 'FeedbackReceived' ? intent.event.comments.map((c) => c.id) : [],
      )
      .catch((err: unknown) => request.log.warn({ err }, 'could not react to a comment')),
    late,
  ]);
  clearTimeout(timer);
}

/** What a command the job did not take found missing, in the writer's terms. */
const NOTHING_TO_DO: Partial<Record<string, string>> = {
  stop: 'no round is under way to stop',
  approve: 'no plan is waiting for approval',
  revise: 'no plan is waiting for approval',
  continue: 'the job is not waiting on its token budget',
  retry:
    'no pull request is open to run a round on yet: the job waits for `@booty approve` of its plan, or `@booty continue` at its token budget',
};

/** Every command from a writer gets an answer: one the job did not take says why. */
async function answerIgnored(
  intent: ConversationIntent,
  reason: string,
  deps: WebhookDeps,
  request: FastifyRequest,
) {
  const { event } = intent;
  if (!deps.conversation || event.type !== 'CommandReceived') return;
  const why = reason === NOTHING_NEW ? (NOTHING_TO_DO[event.command] ?? reason) : reason;
  await deps.conversation
    .answerIgnored(
      intent.repo,
      intent.needs.installationId,
      intent.target,
      event.author,
      event.commentId,
      `\`@booty ${event.command}\` did nothing: ${why}.`,
    )
    .catch((err: unknown) => request.log.warn({ err }, 'could not answer an ignored command'));
}

/** The reply for each submit outcome. Pure, so the contract with GitHub reads in one place. */
export function replyFor(
  result: SubmitResult,
  intent: Intent,
): { status: number; body: Record<string, unknown> } {
  switch (result.outcome) {
    case 'created':
      return { status: 202, body: { jobId: result.jobId } };
    case 'already-active': {
      const where =
        intent.kind === 'request' ? issueKey(intent.request.repo, intent.request.issue.number) : 'this issue';
      return {
        status: 202,
        body: {
          jobId: result.jobId,
          alreadyActive: true,
          message: `${where} already has an active job ${result.jobId}; no second job was started`,
        },
      };
    }
    case 'cancelled':
      return { status: 202, body: { cancelled: result.jobIds } };
    case 'woke':
      return { status: 202, body: { jobId: result.jobId, woke: true } };
    case 'ignored':
      return { status: 202, body: { ignored: true, reason: result.reason } };
    case 'duplicate':
      return { status: 200, body: { duplicate: true } };
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function requiredHeader(request: FastifyRequest, name: string, schema: z.ZodType<string>): string {
  const value = header(request, name);
  if (value === undefined)
    throw new BootyError('BOOTY_E_WEBHOOK_HEADER', { header: name, reason: 'is missing' });
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new BootyError('BOOTY_E_WEBHOOK_HEADER', {
      header: name,
      reason: `is invalid: ${parsed.error.issues[0]!.message}`,
    });
  }
  return parsed.data;
}
