import type { JobObserver } from '../engine/supervisor.js';
import { BootyError } from '../errors.js';
import { repoFromKey } from '../events/job-events.js';
import type { ProgressComments, ProgressTarget } from '../forges/forge.js';
import { progressMarker } from '../forges/markers.js';
import type { Logger } from '../log.js';
import type { JobSnapshot } from '../machines/fold.js';
import { type JobContext, jobView } from '../machines/job-context.js';
import { onFirstUse } from '../on-first-use.js';
import type { SandboxChoice } from '../sandbox/sandbox-mode.js';
import type { EventStore } from '../store/event-store.js';
import { readJobLog } from '../store/job-log.js';
import { jobViewUrl } from '../views/job-link.js';

// The progress comment, and the body of the job's PR, as a projection of the job's log. Every logged event may change it; the
// reporter keeps at most one request in flight per job and always writes the latest state, so a
// burst of events costs one edit. Edits are at least `minIntervalMs` apart, except the job's last:
// a person reading the issue cannot follow faster, each edit is a write GitHub paces at 1 s, and
// every edit made is work done beside the job's own steps. It never throws into the supervisor: a
// failed write is logged and the next change (or the next boot, through listUnreported) writes again.
//
// With many workers a job's comment is written by the worker running it alone: a change another
// worker's gateway logged for it (runsHere false) is not shown here, and the reporter holds state
// only for the jobs it shows, from their run's start (`running`) until they settle or leave. A job
// leaving this worker writes nothing more once its lease could be another's, and its writes run in
// log order: an edit never puts an older state over a newer one.

export interface ProgressReporterOptions {
  /** Where the comment lives: the forge's issue. */
  comments: ProgressComments;
  store: Pick<EventStore, 'markReported' | 'readStream'>;
  log?: Logger;
  /** Removes secrets before the comment is published. */
  scrub?: (text: string) => string;
  /** Where people reach booty's job view (BOOTY_PUBLIC_URL, when the view is served): comments link there. */
  publicUrl?: string | null;
  /** The sandbox mode and who chose it, for the notice that the tests ran without bubblewrap. */
  sandbox?: SandboxChoice;
  /** Tries per write before waiting for the next change; default 4. */
  attempts?: number;
  /** Pause before a retry, doubled each time; default 500 ms. */
  retryDelayMs?: number;
  /** Least time between two edits of a running job's comment; default 1000 ms. */
  minIntervalMs?: number;
}

export interface ProgressReporter extends JobObserver {
  /** `runsHere: false`: the job runs on another worker (or nowhere yet), which shows it: ignored. */
  changed(change: { jobId: string; version: number; snapshot: JobSnapshot; runsHere?: boolean }): void;
  settled(jobId: string, snapshot: JobSnapshot, version: number): Promise<void>;
  /** A job's run here begins: it is shown as its log stands, without waiting for its first change. */
  running(jobId: string): void;
  /** The job's run here has ended: an edit not yet sent is dropped, the one in flight awaited. */
  leaving(jobId: string): Promise<void>;
  /** Shows the job as its log stands: the supervisor reports no change for JobRequested itself. */
  refresh(jobId: string): Promise<void>;
  /** Resolves when nothing is being written for the job (or for any job). */
  idle(jobId?: string): Promise<void>;
  /** The jobs the reporter holds state for: those it shows now. */
  held(): string[];
  /**
   * Shows why a job that has not started waits (the per-day dollar cap), after any write of its
   * request under way: the job's progress replaces it once it runs.
   */
  waits(job: ProgressTarget, body: string): Promise<void>;
}

interface Entry {
  latest: { snapshot: JobSnapshot; version: number } | null;
  shown: number;
  comment: { id: number; body: string } | null;
  /** The body the job's PR has, as last read or written here; null: read it before writing. */
  prBody: string | null;
  reacted: boolean;
  running: Promise<void> | null;
  /** When the last edit was sent (ms), for the interval between edits. */
  lastAt: number;
  /** The job has settled: write its last state without waiting for the interval. */
  final: boolean;
  /** Ends a wait for the interval early. */
  wake: (() => void) | null;
  /** Aborted when the job leaves this worker: nothing more is written for it. */
  left: AbortController;
  /** A read of the log (refresh) whose state is shown when it ends. */
  reading: Promise<void> | null;
}

// The renderers (the comment, the PR body, and the views they draw on) load with the first job's
// first write: an idle serve has nothing to render.
const renderers = onFirstUse(async () => ({
  ...(await import('../views/progress-render.js')),
  ...(await import('../views/pr-body.js')),
}));

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
        prBody: null,
        reacted: false,
        running: null,
        lastAt: Number.NEGATIVE_INFINITY,
        final: false,
        wake: null,
        left: new AbortController(),
        reading: null,
      };
      entries.set(jobId, e);
    }
    return e;
  };

  async function show(e: Entry, snapshot: JobSnapshot) {
    const ctx = jobView(snapshot.context);
    if (!e.reacted) {
      await options.comments
        .acknowledge(ctx)
        .catch((err) => log?.warn({ jobId: ctx.jobId, err: String(err) }, 'no 👀 reaction'));
      e.reacted = true;
    }
    const { renderProgress } = await renderers();
    const rendered = renderProgress(snapshot, { jobViewUrl: link(ctx.jobId), sandbox: options.sandbox });
    const body = options.scrub ? options.scrub(rendered) : rendered;
    e.comment = await options.comments.write(ctx, body, e.comment);
    // The body's own failure does not hold the comment back: the next change writes it again.
    await showPrBody(e, ctx).catch((err: unknown) => {
      e.prBody = null;
      log?.warn(
        { jobId: ctx.jobId, err: String(err) },
        'pull request body not updated; retrying at the next change',
      );
    });
  }

  /**
   * The PR body as the job stands: its files, the tests seen passing, its rounds and cost. Read
   * before the first write of a run, so a restart writes only what changed; a person's PR is theirs.
   */
  async function showPrBody(e: Entry, ctx: JobContext) {
    // Between rounds only: a round under way would edit the PR at each of its steps, and each edit
    // is a webhook; the body says what the PR holds, which changes when a round ends.
    if (!ctx.pr || ctx.request.onPr || ctx.round) return;
    const target = { ...ctx, pr: ctx.pr.number };
    const current = e.prBody ?? (await options.comments.readPrBody(target));
    const { carriedDependencies, renderPrBody } = await renderers();
    // An older log did not record the dependencies: the body's own section is carried over.
    const carried = ctx.pr.dependencies ? null : carriedDependencies(current);
    const rendered = renderPrBody(ctx, { carried, sandbox: options.sandbox });
    const body = options.scrub ? options.scrub(rendered) : rendered;
    if (body !== current) await options.comments.updatePrBody(target, body);
    e.prBody = body;
  }

  /** Waits ms, or less: until the job leaves, or (`wakeable`, the interval) until it settles. */
  function nap(e: Entry, ms: number, wakeable: boolean) {
    // Left while a write was in flight: its abort has fired already, and would not end this wait.
    if (e.left.signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        e.left.signal.removeEventListener('abort', done);
        if (wakeable) e.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      e.left.signal.addEventListener('abort', done);
      if (wakeable) e.wake = done;
    });
  }

  /** Waits out the interval since the last edit, unless the job settles meanwhile. */
  async function pace(e: Entry) {
    const wait = e.lastAt + interval - Date.now();
    if (e.final || wait <= 0) return;
    await nap(e, wait, true);
  }

  async function drain(jobId: string, e: Entry) {
    try {
      for (;;) {
        await pace(e);
        if (e.left.signal.aborted || !e.latest || e.latest.version <= e.shown) return;
        e.lastAt = Date.now();
        let tries = 0;
        for (;;) {
          // Each try writes the latest state: a retry never puts back one a newer change replaced.
          const next = e.latest!;
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
            await nap(e, delay * 2 ** (tries - 1), false);
            if (e.left.signal.aborted) return;
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

  /** Reads the log and shows it, unless the job has left (or settled) meanwhile. */
  function refresh(jobId: string): Promise<void> {
    const e = entry(jobId);
    // The machine loads with the first job, not at start-up. The reading ends once the log is
    // folded, as the show is scheduled: who waits for it finds the show running.
    const folded = Promise.all([readJobLog(options.store, jobId), import('../machines/fold.js')]).then(
      ([events, { foldJob }]) => ({ snapshot: foldJob(events), version: events.length }),
    );
    const reading: Promise<void> = folded.then(
      () => undefined,
      () => undefined,
    );
    e.reading = reading;
    void reading.then(() => {
      if (e.reading === reading) e.reading = null;
    });
    return folded.then(({ snapshot, version }) =>
      entries.get(jobId) === e ? schedule(jobId, snapshot, version) : undefined,
    );
  }

  return {
    changed(change) {
      // Another worker runs the job and writes its comment: two writers would race each other's edits.
      if (change.runsHere === false) return;
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
      try {
        void schedule(jobId, snapshot, version);
        // A read of the log, or a change, that came while the last write was in flight is drained too.
        await e.reading;
        while (e.running) await e.running;
        if (e.shown >= version) await options.store.markReported(jobId, version);
      } finally {
        // Settled, the job runs here no more: its next run (here or not) starts afresh.
        if (entries.get(jobId) === e) entries.delete(jobId);
      }
    },
    running(jobId) {
      refresh(jobId).catch((err: unknown) =>
        log?.warn({ jobId, err: String(err) }, 'progress comment not shown at the run’s start'),
      );
    },
    async leaving(jobId) {
      const e = entries.get(jobId);
      if (!e) return;
      // Gone at once: a change that comes later starts afresh, and the waits for the interval or a
      // retry end now. The request in flight is awaited, so none lands once the job is another's.
      entries.delete(jobId);
      e.left.abort();
      await e.reading;
      while (e.running) await e.running;
    },
    refresh,
    async damaged(job, problem) {
      // The log cannot be folded: the comment says so in words, with no state to show.
      const target = {
        jobId: job.jobId,
        repo: repoFromKey(job.repo),
        issue: { number: job.issue },
        installationId: null,
      };
      const body = [
        progressMarker(job.jobId),
        '### ⚠️ booty stopped working on this issue: its log is damaged',
        `${problem.message}.`,
        'booty does not resume a job whose log it cannot trust. Nothing was pushed or published after the damage. Label the issue again to start a fresh job.',
        `<sub>booty job \`${job.jobId}\`</sub>`,
      ].join('\n\n');
      await options.comments.write(target, options.scrub ? options.scrub(body) : body, null);
      // Said: the next boot does not say it again (it does when this failed, the job's report lagging).
      await options.store.markReported(job.jobId, job.version);
    },
    async idle(jobId) {
      const targets = jobId ? [entries.get(jobId)] : [...entries.values()];
      for (const e of targets) {
        await e?.reading;
        while (e?.running) await e.running;
      }
    },
    held: () => [...entries.keys()],
    async waits(job, body) {
      const e = entry(job.jobId);
      await e.reading;
      while (e.running) await e.running;
      e.comment = await options.comments.write(job, options.scrub ? options.scrub(body) : body, e.comment);
    },
  };
}
