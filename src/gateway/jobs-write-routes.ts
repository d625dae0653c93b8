import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BootyError } from '../errors.js';
import { type RepoRef, repoFromKey } from '../events/job-events.js';
import type { Intake } from '../intake/deliveries.js';
import type { IntakeSettings } from '../intake/intake-config.js';
import type { EventStore } from '../store/event-store.js';
import type { JobRecord } from '../store/records.js';
import { jobJson } from '../views/job-json.js';
import { callerName, requireScope } from './api-auth.js';
import { cancelJobSchema, retryJobSchema, startJobSchema } from './api-schemas.js';

// A write token's routes: start a job for an issue, cancel one, run a finished one again. Each goes
// through intake as a webhook delivery does, recorded under an `api-…` delivery id, so the
// log says a job was started or cancelled through the API, and by which token.

/** The issue as GitHub has it now: what a job is started with. */
export type ReadIssue = (
  repo: RepoRef,
  number: number,
) => Promise<{ number: number; title: string; body: string; url: string }>;

export interface WriteDeps {
  store: EventStore;
  intake: Intake;
  config: IntakeSettings;
  /** Reads an issue from GitHub; absent where booty has no GitHub client (a test's effects). */
  readIssue?: ReadIssue;
}

/** A job that ended this way was done with, not given up on: it is not run again. */
const NOT_RETRIED = new Set(['merged']);

export async function jobsWriteRoutes(app: FastifyInstance, deps: WriteDeps) {
  const { store, intake, config } = deps;
  const delivery = (action: string) => ({ id: `api-${randomUUID()}`, event: 'api', action });

  const jobOf = async (id: string): Promise<JobRecord> => {
    const job = await store.getJob(id);
    if (!job) throw new BootyError('BOOTY_E_STREAM_NOT_FOUND', { streamId: id });
    return job;
  };

  const start = async (
    request: FastifyRequest,
    reply: FastifyReply,
    repo: RepoRef,
    number: number,
    action: 'start' | 'retry',
  ) => {
    const fullName = `${repo.owner}/${repo.name}`;
    if (!config.isAllowedRepo(fullName)) throw new BootyError('BOOTY_E_REPO_NOT_ALLOWED', { repo: fullName });
    if (!deps.readIssue)
      throw new BootyError('BOOTY_E_NOT_READY', {
        reason: 'this booty has no GitHub client to read the issue',
      });
    const issue = await deps.readIssue(repo, number);
    const submitted = await intake.submit(delivery(action), {
      kind: 'request',
      request: {
        repo,
        issue: { number: issue.number, title: issue.title, body: issue.body, url: issue.url },
        triggerLabel: config.triggerLabel,
        sender: callerName(request),
        installationId: null,
      },
    });
    if (submitted.outcome !== 'created' && submitted.outcome !== 'already-active') {
      throw new BootyError('BOOTY_E_EFFECT_FAILED', {
        src: 'POST /jobs',
        reason: `the job was not created (${submitted.outcome})`,
      });
    }
    reply.code(submitted.outcome === 'created' ? 201 : 200);
    return { job: jobJson(await jobOf(submitted.jobId)) };
  };

  app.post<{ Body: { repo: string; issue: number } }>(
    '/jobs',
    { schema: startJobSchema, preValidation: requireScope('write', 'starting a job') },
    async (request, reply) => {
      return start(request, reply, repoFromKey(request.body.repo), request.body.issue, 'start');
    },
  );

  app.post<{ Params: { id: string } }>(
    '/jobs/:id/cancel',
    { schema: cancelJobSchema, preValidation: requireScope('write', 'cancelling a job') },
    async (request) => {
      const job = await jobOf(request.params.id);
      if (job.final) throw new BootyError('BOOTY_E_JOB_FINISHED', { jobId: job.jobId, state: job.state });
      const done = await intake.submit(delivery('cancel'), {
        kind: 'cancel',
        repo: repoFromKey(job.repo),
        issue: job.issue,
        reason: 'operator',
        sender: callerName(request),
      });
      // Finished between the read and the cancel: nothing was cancelled.
      if (done.outcome !== 'cancelled' || !done.jobIds.includes(job.jobId)) {
        const now = await jobOf(job.jobId);
        throw new BootyError('BOOTY_E_JOB_FINISHED', { jobId: now.jobId, state: now.state });
      }
      return { job: jobJson(await jobOf(job.jobId)) };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/jobs/:id/retry',
    { schema: retryJobSchema, preValidation: requireScope('write', 'retrying a job') },
    async (request, reply) => {
      const job = await jobOf(request.params.id);
      if (!job.final) {
        throw new BootyError('BOOTY_E_JOB_NOT_RETRYABLE', {
          jobId: job.jobId,
          reason: `it has not finished (${job.state}); a job waiting with its pull request takes a writer's \`@booty retry\` there, or cancel it first`,
        });
      }
      if (NOT_RETRIED.has(job.state))
        throw new BootyError('BOOTY_E_JOB_NOT_RETRYABLE', {
          jobId: job.jobId,
          reason: `its pull request was ${job.state}`,
        });
      return start(request, reply, repoFromKey(job.repo), job.issue, 'retry');
    },
  );
}
