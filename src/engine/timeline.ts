import { BootyError } from '../errors.js';
import { repoKey } from '../events/job-events.js';
import type { FoldStep, JobSnapshot } from '../machines/fold.js';
import type { EventStore } from '../store/event-store.js';
import { brokenAt } from '../store/hash-chain.js';
import { type LogEntry, toLogEntry } from '../store/job-log.js';
import type { StoredEvent } from '../store/records.js';

// A job's log read back as a timeline: what happened, when, and where the machine stood after it.
// Shared by `booty replay` and `GET /jobs/:id/timeline`.

export interface TimelineEntry {
  seq: number;
  type: string;
  /** The step of a StepSucceeded or StepFailed. */
  step: string | null;
  /** A short human label: "prepare done", "test failed: …", "cancelled (closed)". */
  label: string;
  state: string;
  recordedState: string | null;
  at: number;
  deltaMs: number;
  attempt: number;
  tokens: StoredEvent['meta']['tokens'] | null;
}

export interface Timeline {
  jobId: string;
  repo: string;
  issue: number;
  verified: boolean;
  divergence: { seq: number; type: string; recorded: string; folded: string } | null;
  /** Where the log's hash chain or its versions stop checking out: an edit after it was written. */
  tampered: { seq: number; reason: string } | null;
  finalState: string;
  entries: TimelineEntry[];
  snapshot: JobSnapshot;
}

export async function readTimeline(store: EventStore, jobId: string, until?: number): Promise<Timeline> {
  const rows = await store.readStream(jobId);
  if (rows.length === 0) throw new BootyError('BOOTY_E_STREAM_NOT_FOUND', { streamId: jobId });
  const tampered = brokenAt(rows);
  let events: LogEntry[];
  try {
    events = rows.map(toLogEntry);
  } catch (err) {
    // A row that does not parse in a log that does not check out: the edit is the news.
    if (tampered) throw new BootyError('BOOTY_E_LOG_TAMPERED', { jobId, ...tampered });
    throw err;
  }
  if (until !== undefined && until > events.length) {
    throw new BootyError('BOOTY_E_USAGE', {
      command: 'replay',
      reason: `--until ${until} is past the end: job ${jobId} has ${events.length} events`,
    });
  }
  const { firstDivergence, foldSteps } = await import('../machines/fold.js');
  const steps = foldSteps(events, until);
  const diverged = firstDivergence(steps);
  const last = steps[steps.length - 1]!;
  const { repo, issue } = last.snapshot.context;
  return {
    jobId,
    repo: repoKey(repo),
    issue: issue.number,
    verified: diverged === null && tampered === null,
    divergence: diverged && {
      seq: diverged.seq,
      type: eventLabel(events[diverged.seq - 1]!),
      recorded: diverged.recorded ?? '',
      folded: diverged.state,
    },
    tampered,
    finalState: last.state,
    entries: steps.map((step, i) => entry(step, events[i]!, events[i - 1])),
    snapshot: last.snapshot,
  };
}

function entry(step: FoldStep, event: LogEntry, previous: LogEntry | undefined): TimelineEntry {
  // A failure reads "will retry" only where the job did schedule a retry after it.
  const retrying = step.snapshot.context.error?.notBefore != null;
  return {
    seq: step.seq,
    type: step.type,
    step: 'step' in event.event ? event.event.step : null,
    label: eventLabel(event, retrying),
    state: step.state,
    recordedState: step.recorded,
    at: event.at,
    deltaMs: previous ? event.at - previous.at : 0,
    attempt: step.snapshot.context.attempt,
    tokens: event.meta.tokens ?? null,
  };
}

/**
 * A short human label for a logged event: "prepare done", "cancelled (closed)". A failure says
 * "(will retry)" only when `retrying` says the job scheduled one: a step that failed for good
 * never promises it, whatever the error's own class.
 */
export function eventLabel({ event }: LogEntry, retrying = false): string {
  switch (event.type) {
    case 'StepSucceeded':
      return `${event.step} done`;
    case 'StepFailed':
      return `${event.step} ${retrying ? 'failed (will retry)' : 'failed'}: ${event.error.message}`;
    case 'JobCancelled':
      return `cancelled (${event.reason})`;
    case 'JobRequested':
      return `requested by ${event.sender}`;
    case 'FeedbackReceived':
      return `${event.place.replace('-', ' ')} from ${event.author}`;
    case 'CommandReceived':
      return `@booty ${event.command}${event.text ? ` "${event.text}"` : ''} from ${event.author}`;
    case 'QuestionAsked':
      return `question from ${event.author} (${event.place.replace('-', ' ')})`;
    case 'CiCompleted':
      return `CI ${event.source.replace('_', ' ')} ${event.conclusion ?? 'completed'} on ${event.headSha.slice(0, 7)}`;
    case 'PrClosed':
      return event.merged ? `PR merged by ${event.sender}` : `PR closed by ${event.sender}`;
    case 'PrUpdated':
      return `PR ${event.action.replaceAll('_', ' ')} by ${event.sender}`;
  }
}

/** Throws the coded error when the log was edited, or when the log and the machine disagree. */
export function assertVerified(timeline: Timeline) {
  if (timeline.tampered)
    throw new BootyError('BOOTY_E_LOG_TAMPERED', { jobId: timeline.jobId, ...timeline.tampered });
  const d = timeline.divergence;
  if (d)
    throw new BootyError('BOOTY_E_REPLAY_DIVERGED', {
      seq: d.seq,
      type: d.type,
      recorded: d.recorded,
      folded: d.folded,
    });
}

/** A job's path through the machine: the state after each logged event, oldest first (`booty machine --mermaid --job`). */
export async function jobPath(store: EventStore, jobId: string): Promise<string[]> {
  return (await readTimeline(store, jobId)).entries.map((e) => e.state);
}
