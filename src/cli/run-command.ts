import crypto from 'node:crypto';
import { loadEnv } from '../env.js';
import { BootyError } from '../errors.js';
import { repoFromKey } from '../events/job-events.js';
import { createLogger } from '../log.js';
import { type BootyConfig, composeBooty } from '../main/compose.js';
import { lockStore } from '../main/open-store.js';
import type { DbLock } from '../store/sqlite/db-lock.js';
import type { Command } from './command.js';
import { followJob, stateEcho } from './follow-job.js';
import { dbEnv, dbHelp, dbOption } from './store-option.js';

/** `owner/repo#N` on GitHub, `gitlab:group/project#N` (subgroups too) on GitLab. */
const TARGET = /^((?:gitlab:)?[\w.-]+(?:\/[\w.-]+)+)#(\d+)$/;

export const runCommand: Command = {
  name: 'run',
  usage: [
    'Usage: booty run <owner/repo#N> [--db PATH]',
    '',
    'Reads the issue through the GitHub API and runs one job for it in this process, printing each',
    'state; helpful behind NAT and when debugging. Needs GitHub credentials and ANTHROPIC_API_KEY',
    '(see README); no webhook secret.',
    '',
    'Exits 0 when the PR is ready for review, or is a draft whose tests passed that waits for CI or a',
    "human. Exits 1 when the job failed or was cancelled, and when it waits for a writer's word: its",
    "plan's approval, `@booty continue` at its token budget, or a draft whose tests do not pass. It",
    'prints what it waits for; `booty serve` takes the answer from there.',
    '',
    'Refuses a PostgreSQL store (--db postgres://…, or BOOTY_DATABASE_URL): there the `booty serve`',
    'workers run the jobs, and one run here, holding no lease, could run beside them. Label the issue.',
    'Refuses, naming its pid, a SQLite file another booty (`serve`, `demo`, `run`) is writing.',
    '',
    dbHelp,
  ].join('\n'),
  options: { ...dbOption },
  positionals: ['owner/repo#N'],
  async run({ values, positionals }, io) {
    const match = TARGET.exec(positionals[0]!);
    if (!match) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'run',
        reason: `expected owner/repo#N, not ${JSON.stringify(positionals[0])}`,
      });
    }
    const [, key, number] = match as unknown as [string, string, string];
    const repo = repoFromKey(key);
    const env = loadEnv({ ...io.env, ...(values.db ? dbEnv(values.db as string) : {}) });
    // One job in this process, with no lease: on PostgreSQL a `booty serve` worker could run it too.
    if (env.BOOTY_DATABASE_URL) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'run',
        reason: `booty run takes a SQLite store only: on a PostgreSQL store (${values.db ? '--db' : 'BOOTY_DATABASE_URL'}) the workers run the jobs, so label the issue for them instead`,
      });
    }
    if (!env.ANTHROPIC_API_KEY)
      throw new BootyError('BOOTY_E_ENV_INVALID', {
        name: 'ANTHROPIC_API_KEY',
        reason: 'is missing: booty needs it to call Claude',
      });
    // One writer per SQLite file: beside a `booty serve` on it, this run would run the job's step
    // a second time, in the workspace the server uses. It does not wait for the holder to exit.
    const lock = await lockStore(env.BOOTY_DB, { waitMs: 0 });
    const log = createLogger({ level: env.LOG_LEVEL, destination: process.stderr });
    const booty = await composeBootyOrRelease(lock, { env, log, concurrency: 1, observers: [stateEcho(io)] });
    const { supervisor } = booty;
    try {
      const issue = await booty.forge!.effects.getIssue(repo, Number(number));
      const submitted = await booty.intake.submit(
        { id: `run-${crypto.randomUUID()}`, event: 'issues', action: 'labeled' },
        {
          kind: 'request',
          request: {
            repo,
            issue: { number: issue.number, title: issue.title, body: issue.body, url: issue.url },
            triggerLabel: env.BOOTY_TRIGGER_LABEL,
            sender: 'booty run',
            installationId: null,
          },
        },
      );
      if (submitted.outcome === 'already-active')
        io.out(`${key}#${number} already has job ${submitted.jobId}; following it`);
      const jobId =
        submitted.outcome === 'created' || submitted.outcome === 'already-active' ? submitted.jobId : null;
      if (!jobId)
        throw new BootyError('BOOTY_E_EFFECT_FAILED', {
          src: 'run',
          reason: `the job was not created (${submitted.outcome})`,
        });
      io.out(`job ${jobId} for ${key}#${number}`);
      if (submitted.outcome === 'already-active') await supervisor.resume(jobId);
      return await followJob(booty, jobId, io);
    } finally {
      await booty.close().finally(() => lock.release());
    }
  },
};

async function composeBootyOrRelease(lock: DbLock, config: BootyConfig) {
  try {
    return await composeBooty(config);
  } catch (err) {
    lock.release();
    throw err;
  }
}
