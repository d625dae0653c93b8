import type { StartGate } from '../engine/held-jobs.js';
import { repoFromKey } from '../events/job-events.js';
import type { ProgressTarget } from '../forges/forge.js';
import type { Logger } from '../log.js';
import type { EventLog } from '../store/event-log.js';
import type { JobIndex } from '../store/job-index.js';
import { renderDailyCapHold } from '../views/held-notice.js';

// BOOTY_MAX_USD_PER_DAY: once an installation's jobs have spent the cap since 00:00 UTC, a new
// job waits before its first step (a job under way finishes: stopping it halfway wastes what it
// spent). The issue hears it once, in the job's progress comment. The held job is looked at
// again every `recheckMs` and when the day rolls over, so a new day, or a restart with a higher
// cap, starts it.

const DAY_MS = 86_400_000;

export interface DailySpendCapOptions {
  capUsd: number;
  store: Pick<JobIndex, 'spentSince'> & Pick<EventLog, 'readStream'>;
  /** The supervisor's clock: the day is the UTC day of this time. */
  now: () => number;
  /** Tells the job's issue, in its progress comment; null (a test's own effects): only the log is. */
  say: ((job: ProgressTarget, body: string) => Promise<void>) | null;
  log: Logger;
  /** How often a held job is looked at again within its day; default a minute. */
  recheckMs?: number;
}

export function dailySpendCap(options: DailySpendCapOptions): StartGate {
  const recheckMs = options.recheckMs ?? 60_000;
  /** Jobs whose issue was told this run; the comment's marker keeps a restart from saying it twice. */
  const told = new Set<string>();
  return {
    async hold(job) {
      const now = options.now();
      const dayStart = now - (now % DAY_MS);
      const installation = await installationOf(options.store, job.jobId);
      const spentUsd = await options.store.spentSince(dayStart, installation);
      if (spentUsd < options.capUsd) return null;
      const resumesAt = dayStart + DAY_MS;
      if (!told.has(job.jobId)) {
        told.add(job.jobId);
        options.log.info(
          { jobId: job.jobId, installation: installation, spentUsd, capUsd: options.capUsd },
          'the daily dollar cap is reached: the job waits for the day to roll over (BOOTY_MAX_USD_PER_DAY)',
        );
        const body = renderDailyCapHold({ jobId: job.jobId, spentUsd, capUsd: options.capUsd, resumesAt });
        const target = {
          jobId: job.jobId,
          repo: repoFromKey(job.repo),
          issue: { number: job.issue },
          installationId: installation,
        };
        await options.say?.(target, body).catch((err: unknown) => {
          told.delete(job.jobId);
          options.log.warn(
            { jobId: job.jobId, err: String(err) },
            'could not say on the issue that the job waits',
          );
        });
      }
      return { recheckAt: Math.min(resumesAt, now + recheckMs) };
    },
  };
}

/** The installation the job's request came through, as its JobRequested logged it. */
async function installationOf(store: Pick<EventLog, 'readStream'>, jobId: string): Promise<number | null> {
  const [requested] = await store.readStream(jobId, { toVersion: 1 });
  const id = requested?.data.installationId;
  return typeof id === 'number' ? id : null;
}
