import crypto from 'node:crypto';
import fs from 'node:fs';
import { loadEnv } from '../env.js';
import { BootyError, isBootyError } from '../errors.js';
import { repoFromKey } from '../events/job-events.js';
import { createLogger } from '../log.js';
import { composeBooty } from '../main/compose.js';
import { lockStore } from '../main/open-store.js';
import type { DbLock } from '../store/sqlite/db-lock.js';
import type { Io, Values } from './command.js';
import { followJob, stateEcho } from './follow-job.js';
import { dbEnv } from './store-option.js';

// `booty jobs cancel|retry ID` on a local (SQLite) store that no `serve` holds: the job is cancelled
// here, or run again here as a fresh job for its issue, as `booty run` runs one. A serve holding the
// file runs its jobs itself and takes these through its API; so do the workers on PostgreSQL.

/** A job that ended this way was done with, not given up on: it is not run again. */
const NOT_RETRIED = new Set(['merged']);

export async function jobAction(
  action: 'cancel' | 'retry',
  jobId: string,
  values: Values,
  io: Io & { self: string },
): Promise<number> {
  const env = loadEnv({ ...io.env, ...(values.db ? dbEnv(values.db as string) : {}) });
  const viaApi = `POST /jobs/${jobId}/${action} with a write token (see README, API)`;
  if (env.BOOTY_DATABASE_URL)
    throw new BootyError('BOOTY_E_USAGE', {
      command: 'jobs',
      reason: `booty jobs ${action} takes a SQLite store only: on PostgreSQL the workers run the jobs, so ask one of them: ${viaApi}`,
    });
  if (!fs.existsSync(env.BOOTY_DB)) throw new BootyError('BOOTY_E_DB_MISSING', { path: env.BOOTY_DB });
  let lock: DbLock;
  try {
    lock = await lockStore(env.BOOTY_DB, { waitMs: 0 });
  } catch (err) {
    if (!isBootyError(err, 'BOOTY_E_DB_LOCKED')) throw err;
    throw new BootyError('BOOTY_E_USAGE', {
      command: 'jobs',
      reason: `a booty serve (pid ${err.params.pid}) holds ${env.BOOTY_DB} and runs its jobs: ask it instead, ${viaApi}`,
    });
  }
  try {
    const log = createLogger({ level: env.LOG_LEVEL, destination: process.stderr });
    const booty = await composeBooty({ env, log, concurrency: 1, observers: [stateEcho(io)] });
    try {
      const job = await booty.store.getJob(jobId);
      if (!job) throw new BootyError('BOOTY_E_STREAM_NOT_FOUND', { streamId: jobId });
      const repo = repoFromKey(job.repo);
      const delivery = { id: `cli-${crypto.randomUUID()}`, event: 'cli', action };
      if (action === 'cancel') {
        if (job.final) throw new BootyError('BOOTY_E_JOB_FINISHED', { jobId, state: job.state });
        await booty.intake.submit(delivery, {
          kind: 'cancel',
          repo,
          issue: job.issue,
          reason: 'operator',
          sender: 'booty jobs cancel',
        });
        await booty.supervisor.onIdle();
        await booty.runtime?.reporter.idle(jobId);
        io.out(`job ${jobId} is ${(await booty.store.getJob(jobId))?.state}`);
        return 0;
      }
      if (!job.final || NOT_RETRIED.has(job.state))
        throw new BootyError('BOOTY_E_JOB_NOT_RETRYABLE', {
          jobId,
          reason: job.final
            ? `its pull request was ${job.state}`
            : `it has not finished (${job.state}); \`${io.self} jobs cancel ${jobId}\` ends it`,
        });
      if (!env.ANTHROPIC_API_KEY)
        throw new BootyError('BOOTY_E_ENV_INVALID', {
          name: 'ANTHROPIC_API_KEY',
          reason: 'is missing: booty needs it to call Claude',
        });
      const issue = await booty.forge!.effects.getIssue(repo, job.issue);
      const submitted = await booty.intake.submit(delivery, {
        kind: 'request',
        request: {
          repo,
          issue: { number: issue.number, title: issue.title, body: issue.body, url: issue.url },
          triggerLabel: env.BOOTY_TRIGGER_LABEL,
          sender: 'booty jobs retry',
          installationId: null,
        },
      });
      if (submitted.outcome !== 'created' && submitted.outcome !== 'already-active')
        throw new BootyError('BOOTY_E_EFFECT_FAILED', {
          src: 'retry',
          reason: `the job was not created (${submitted.outcome})`,
        });
      io.out(`job ${submitted.jobId} for ${job.repo}#${job.issue} (a fresh run of ${jobId})`);
      if (submitted.outcome === 'already-active') await booty.supervisor.resume(submitted.jobId);
      return await followJob(booty, submitted.jobId, io);
    } finally {
      await booty.close();
    }
  } finally {
    lock.release();
  }
}
