import type { JobObserver } from '../actors/supervisor.js';
import { BootyError } from '../errors.js';
import type { Logger } from '../log.js';
import { foldJob, type JobSnapshot } from '../machines/fold.js';
import { jobView } from '../machines/job-context.js';
import type { EventStore } from '../store/event-store.js';
import { readJobLog } from '../store/job-log.js';
import type { GitHubClients } from './clients.js';
import { jobViewUrl } from './job-link.js';
import { progressMarker } from './markers.js';
import { type ProgressComment, reactEyes, upsertProgressComment } from './progress-comment.js';
import { renderProgress } from './progress-render.js';

// The progress comment as a projection of the job's log. Every logged event may change it; the
// reporter keeps at most one request in flight per job and always writes the latest state, so a
// burst of events costs one edit. Edits are at least `minIntervalMs` apart, except the job's last:
// a person reading the issue cannot follow faster, each edit is a write GitHub paces at 1 s, and
// every edit made is work done beside the job's own steps. It never throws into the supervisor: a
// failed write is logged and the next change (or the next boot, through listUnreported) writes again.

export interface ProgressReporterOptions {
  clients: GitHubClients;
  store: Pick<EventStore, 'markReported' | 'readStream'>;
  log?: Logger;
  /** Removes secrets before the comment is published. */
  scrub?: (text: string) => string;
  /** Where people reach booty's job view (BOOTY_PUBLIC_URL, when the view is served): comments link there. */
  publicUrl?: string | null;
  /** Tries per write before waiting for the next change; default 4. */
  attempts?: number;
  /** Pause before a retry, doubled each time; default 500 ms. */
  retryDelayMs?: number;
  /** Least time between two edits of a running job's comment; default 1000 ms. */
  minIntervalMs?: number;
}

export interface ProgressReporter extends JobObserver {
  changed(change: { jobId: string; version: number; snapshot: JobSnapshot }): void;
  settled(jobId: string, snapshot: JobSnapshot, version: number): Promise<void>;
  /** Shows the job as its log stands: the supervisor reports no change for JobRequested itself. */
  refresh(jobId: string): Promise<void>;
  /** Resolves when nothing is being written for the job (or for any job). */
  idle(jobId?: string): Promise<void>;
}

interface Entry {
  latest: { snapshot: JobSnapshot; version: number } | null;
  shown: number;
  comment: ProgressComment | null;
  reacted: boolean;
  running: Promise<void> | null;
  /** When the last edit was sent (ms), for the interval between edits. */
  lastAt: number;
  /** The job has settled: write its last state without waiting for the interval. */
  final: boolean;
  /** Ends a wait for the interval early. */
  wake: (() => void) | null;
}

export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const log = options.log?.child({ component: 'progress' });
  const attempts = options.attempts ?? 4;
  const delay = options.retryDelayMs ?? 500;
  const interval = options.minIntervalMs ?? 1000;
  const entries = new Map<string, Entry>();
  const link = (jobId: string) => (options.publicUrl ? jobViewUrl(options.publicUrl, jobId) : null);

  const entry = (jobId: string) => {
    let e = entries.get(jobId);
    if (!e) {
      e = {
        latest: null,
        shown: 0,
        comment: null,
        reacted: false,
        running: null,
        lastAt: Number.NEGATIVE_INFINITY,
        final: false,
        wake: null,
      };
      entries.set(jobId, e);
    }
    return e;
  };

  async function show(e: Entry, snapshot: JobSnapshot) {
    const ctx = jobView(snapshot.context);
    const gh = await options.clients.forJob(ctx);
    if (!e.reacted) {
      await reactEyes(gh, ctx).catch((err) =>
        log?.warn({ jobId: ctx.jobId, err: String(err) }, 'no 👀 reaction'),
      );
      e.reacted = true;
    }
    const rendered = renderProgress(snapshot, { jobViewUrl: link(ctx.jobId) });
    const body = options.scrub ? options.scrub(rendered) : rendered;
    e.comment = await upsertProgressComment(gh, ctx, body, e.comment);
  }

  /** Waits out the interval since the last edit, unless the job settles meanwhile. */
  async function pace(e: Entry) {
    const wait = e.lastAt + interval - Date.now();
    if (e.final || wait <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      e.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    e.wake = null;
  }

  async function drain(jobId: string, e: Entry) {
    try {
      for (;;) {
        await pace(e);
        const next = e.latest;
        if (!next || next.version <= e.shown) return;
        e.lastAt = Date.now();
        let tries = 0;
        for (;;) {
          try {
            await show(e, next.snapshot);
            e.shown = next.version;
            break;
          } catch (err) {
            e.comment = null;
            // At shutdown nothing is retried: the next start writes the comment from the log.
            const transient =
              err instanceof BootyError && err.retryable && err.code !== 'BOOTY_E_SHUTTING_DOWN';
            if (!transient || ++tries >= attempts) {
              log?.warn(
                { jobId, version: next.version, err: String(err) },
                'progress comment not updated; retrying at the next change',
              );
              return;
            }
            await new Promise((r) => setTimeout(r, delay * 2 ** (tries - 1)));
          }
        }
      }
    } finally {
      // Set synchronously after the last check, so a change arriving later starts a new drain.
      e.running = null;
    }
  }

  function schedule(jobId: string, snapshot: JobSnapshot, version: number): Promise<void> {
    const e = entry(jobId);
    if (!e.latest || version >= e.latest.version) e.latest = { snapshot, version };
    if (!e.running) e.running = drain(jobId, e);
    return e.running;
  }

  return {
    changed(change) {
      try {
        void schedule(change.jobId, change.snapshot, change.version);
      } catch (err) {
        log?.error({ jobId: change.jobId, err: String(err) }, 'progress reporter failed');
      }
    },
    async settled(jobId, snapshot, version) {
      const e = entry(jobId);
      e.final = true;
      e.wake?.();
      await schedule(jobId, snapshot, version);
      // A change that arrived while the last write was in flight is drained by now too.
      while (e.running) await e.running;
      if (e.shown >= version) {
        await options.store.markReported(jobId, version);
        entries.delete(jobId);
      }
    },
    async refresh(jobId) {
      const events = await readJobLog(options.store, jobId);
      await schedule(jobId, foldJob(events), events.length);
    },
    async damaged(job, problem) {
      // The log cannot be folded: the comment says so in words, with no state to show.
      const [owner, name] = job.repo.split('/') as [string, string];
      const target = { jobId: job.jobId, repo: { owner, name }, issue: { number: job.issue } };
      const gh = await options.clients.forRepo(target.repo);
      const body = [
        progressMarker(job.jobId),
        '### ⚠️ booty stopped working on this issue: its log is damaged',
        `${problem.message}.`,
        'booty does not resume a job whose log it cannot trust. Nothing was pushed or published after the damage. Label the issue again to start a fresh job.',
        `<sub>booty job \`${job.jobId}\`</sub>`,
      ].join('\n\n');
      await upsertProgressComment(gh, target as never, options.scrub ? options.scrub(body) : body, null);
    },
    async idle(jobId) {
      const targets = jobId ? [entries.get(jobId)] : [...entries.values()];
      for (const e of targets) while (e?.running) await e.running;
    },
  };
}
