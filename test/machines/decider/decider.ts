import { expect } from 'vitest';
import type { DomainEvent, Step, StepSucceeded } from '../../../src/events/catalogue.js';
import type { FileChange, RepoConfig, TestRun } from '../../../src/events/effect-results.js';
import { JobRequested } from '../../../src/events/job-events.js';
import { decideNext, initialDecision } from '../../../src/machines/decision-table.js';
import {
  type FoldStep,
  foldJob,
  foldSteps,
  jobInput,
  type LoggedEvent,
  machineEventOf,
  nextSnapshot,
} from '../../../src/machines/fold.js';
import { jobMachine } from '../../../src/machines/job.js';
import { effectInput } from '../../../src/machines/job-context.js';
import { stateName } from '../../../src/machines/job-states.js';
import { sampleRequest } from '../../support/job-harness.js';
import { brokenBaseline, testRun, usage } from '../../support/scripted-effects.js';

// Decider tables: given the events a job's log holds, when one more arrives, expect the job is in
// this state and starts this effect (or none). Every row folds domain events exactly as a resume
// or `booty replay` does, so a row is both a rule of the machine and a log it must keep reading.

export type Then = {
  state: string;
  /** The effect the state starts, with its attempt and retry deadline, or null in a final state. */
  effect: { src: string; attempt: number; notBefore: number | null } | null;
  /** Parts of the context the row is about. */
  context?: Record<string, unknown>;
};

export interface Row {
  name: string;
  given: DomainEvent[];
  when: DomainEvent;
  expect: Then;
}

const AT = 1_700_000_000_000;

export const requested = (settings: Record<string, unknown> = {}): DomainEvent =>
  JobRequested.parse({
    ...sampleRequest(),
    type: 'JobRequested',
    jobId: 'job-1',
    deliveryId: 'd-1',
    requestedAt: AT,
    settings: { retryBaseMs: 1000, retryCapMs: 60_000, ...settings },
  });

export const succeeded = (step: Step, result: object, attempt = 0): StepSucceeded => ({
  type: 'StepSucceeded',
  step,
  attempt,
  result: { at: AT, ...result },
});

/** A job requested before the refine loop's controls (JobRequested v3, lifted): it neither stalls nor parks. */
export const requestedBeforeControls = (settings: Record<string, unknown> = {}): DomainEvent =>
  ({
    ...requested(settings),
    loopControls: false,
  }) as DomainEvent;

/** A job requested before new quality findings counted as improvement (JobRequested v4, lifted). */
export const requestedBeforeQualityProgress = (settings: Record<string, unknown> = {}): DomainEvent =>
  ({
    ...requested(settings),
    qualityProgress: false,
  }) as DomainEvent;

/** A job requested before booty's rules as a collaborator (JobRequested v5, lifted): machine 7's conversation. */
export const requestedBeforeCollaborator = (settings: Record<string, unknown> = {}): DomainEvent =>
  ({
    ...requested(settings),
    collaborator: false,
  }) as DomainEvent;

/** The same log, requested before machine 9 (JobRequested v7, lifted): a push's delivery is read for the draft state. */
export const beforeDraftByAction = (log: DomainEvent[]): DomainEvent[] => [
  { ...log[0], draftByAction: false } as DomainEvent,
  ...log.slice(1),
];

/** The same log, requested before machine 8: its first event swapped for a v5 request. */
export const beforeCollaborator = (log: DomainEvent[]): DomainEvent[] => [
  requestedBeforeCollaborator(),
  ...log.slice(1),
];

/** A step's failure; `tokens`, when given, is what it spent before failing. */
export const failed = (step: Step, retryable: boolean, attempt = 0, tokens?: number): DomainEvent => ({
  type: 'StepFailed',
  step,
  attempt,
  error: {
    code: retryable ? 'BOOTY_E_EFFECT_TRANSIENT' : 'BOOTY_E_EFFECT_FAILED',
    message: `${step} failed: simulated ${retryable ? '503' : '401'}`,
    retryable,
    at: AT,
    ...(tokens === undefined ? {} : { usage: usage(tokens) }),
  },
});

/** A writer's `@booty` command on the issue. */
export const command = (
  word: 'continue' | 'approve' | 'revise' | 'retry' | 'cancel',
  text?: string,
): DomainEvent => ({
  type: 'CommandReceived',
  command: word,
  place: 'issue-comment',
  author: 'maintainer',
  commentId: 801,
  ...(text === undefined ? {} : { text }),
  deliveryId: `d-${word}`,
  at: AT,
});

export const cancelled = (reason: 'unlabeled' | 'closed' | 'operator' = 'unlabeled'): DomainEvent => ({
  type: 'JobCancelled',
  reason,
  sender: 'octocat',
  deliveryId: 'd-cancel',
  at: AT,
});

const config = (maxAttempts = 3, extra: Partial<RepoConfig> = {}): RepoConfig => ({
  source: 'default',
  path: null,
  test: { command: 'npm test' },
  install: null,
  timeoutSeconds: 60,
  maxAttempts,
  protectedPaths: [],
  sandbox: 'off',
  ...extra,
});

export const change = (n: number): FileChange => ({ path: 'src/index.js', content: `attempt ${n}\n` });
const testChange: FileChange = { path: 'test/index.test.js', content: 'test("adds", () => {});\n' };

/** Each step's success as its effect records it. */
export const ok = {
  prepared: (maxAttempts = 3, extra: Partial<RepoConfig> = {}) =>
    succeeded('prepare', {
      baseSha: 'a'.repeat(40),
      defaultBranch: 'main',
      branch: 'booty/issue-1',
      config: config(maxAttempts, extra),
      comments: [],
    }),
  baseline: (run: Omit<TestRun, 'at'> = testRun(true)) => succeeded('baseline', run),
  brokenBaseline: () => succeeded('baseline', brokenBaseline()),
  analyzed: (tokens = 100) =>
    succeeded('analyze', {
      analysis: {
        summary: 'Add add()',
        changeKind: 'feat',
        filesToRead: [],
        filesToChange: ['src/index.js'],
        testsToAdd: ['test/index.test.js'],
        acceptanceCriteria: ['it adds'],
        risks: [],
      },
      usage: usage(tokens),
    }),
  generated: (attempt = 1, tokens = 100) =>
    succeeded(
      'generate',
      { changes: [change(attempt), testChange], explanation: 'adds add()', usage: usage(tokens) },
      attempt,
    ),
  refined: (attempt: number, tokens = 100) =>
    succeeded(
      'refine',
      { changes: [change(attempt)], explanation: 'fixes add()', usage: usage(tokens) },
      attempt,
    ),
  applied: (
    attempt = 1,
    changes: FileChange[] = attempt === 1 ? [change(1), testChange] : [change(attempt)],
  ) =>
    succeeded(
      'apply',
      {
        applied: changes,
        rejected: [],
        addedTests: changes.some((c) => c === testChange) ? [testChange.path] : [],
      },
      attempt,
    ),
  rejected: (attempt = 1) =>
    succeeded(
      'apply',
      {
        applied: [],
        rejected: [{ path: '.github/workflows/ci.yml', rule: 'path-protected', reason: 'protected' }],
        addedTests: [],
      },
      attempt,
    ),
  tests: (passed: boolean, attempt = 1) =>
    succeeded('test', testRun(passed, passed ? [] : ['test/index.test.js > adds']), attempt),
  unknownTests: (attempt = 1) =>
    succeeded(
      'test',
      {
        ...testRun(false),
        verdict: 'unknown',
        reasons: [
          {
            code: 'exit-disagrees',
            level: 'unknown',
            message: 'the command exited 1 and named no failing test',
            tests: [],
          },
        ],
      },
      attempt,
    ),
  pr: (attempt = 1) =>
    succeeded(
      'openPr',
      {
        number: 7,
        url: 'http://github.test/acme/widgets/pull/7',
        nodeId: 'PR_7',
        draft: true,
        headSha: 'b'.repeat(40),
        created: true,
      },
      attempt,
    ),
  promoted: (attempt = 1, ci: CiState = 'passed') =>
    succeeded('promote', { draft: ci !== 'passed' && ci !== 'none', ci: ciRead(ci) }, attempt),
  ci: (state: CiState, attempt = 1, sha = 'b'.repeat(40)) => succeeded('ci', ciRead(state, sha), attempt),
  rerun: (attempt = 1, sha = 'b'.repeat(40)) => succeeded('rerunCi', { sha, runs: [41] }, attempt),
  demoted: (attempt = 1) => succeeded('demote', { draft: true }, attempt),
  synced: (attempt = 1, headSha = 'c'.repeat(40)) => succeeded('sync', { headSha }, attempt),
  answered: (attempt: number, commit: string | null, headSha = commit ?? 'c'.repeat(40)) =>
    succeeded('answer', { commit, headSha, replies: 1 }, attempt),
  questionAnswered: (attempt = 1, commit = 'b'.repeat(40)) =>
    succeeded(
      'question',
      {
        commit,
        answered: true,
        answer: 'parse() reads an empty string as NaN (src/index.js:1).',
        references: [{ path: 'src/index.js', line: 1, endLine: null }],
        usage: {
          model: 'm',
          inputTokens: 10,
          outputTokens: 5,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0,
        },
        replies: 1,
      },
      attempt,
    ),
};

type CiState = 'none' | 'pending' | 'passed' | 'failed';

function ciRead(state: CiState, sha = 'b'.repeat(40)) {
  const failed = state === 'failed';
  return {
    sha,
    state,
    total: state === 'none' ? 0 : 1,
    failing: failed ? [{ name: 'build', kind: 'check', url: null, detail: 'expected 3, got 4' }] : [],
    rerunnable: failed ? [41] : [],
  };
}

/** What GitHub tells a job with an open PR, as the gateway logs it. */
export const outside = {
  review: (body = 'Please also handle negative numbers.', mention = false): DomainEvent => ({
    type: 'FeedbackReceived',
    place: 'review',
    author: 'reviewer',
    body,
    commentId: 501,
    comments: [{ id: 601, path: 'src/index.js', line: 1, body }],
    mention,
    deliveryId: 'd-review',
    at: AT,
  }),
  question: (
    body = 'Why does parse() return NaN?',
    place: 'issue-comment' | 'pr-comment' = 'pr-comment',
  ): DomainEvent => ({
    type: 'QuestionAsked',
    place,
    author: 'maintainer',
    body: `@booty ${body}`,
    commentId: 801,
    deliveryId: 'd-question',
    at: AT,
  }),
  command: (command: 'retry' | 'stop' | 'cancel'): DomainEvent => ({
    type: 'CommandReceived',
    command,
    place: 'pr-comment',
    author: 'maintainer',
    commentId: 701,
    deliveryId: `d-${command}`,
    at: AT,
  }),
  ciDone: (sha = 'b'.repeat(40)): DomainEvent => ({
    type: 'CiCompleted',
    headSha: sha,
    source: 'check_suite',
    conclusion: 'success',
    deliveryId: 'd-ci',
    at: AT,
  }),
  closed: (merged: boolean): DomainEvent => ({
    type: 'PrClosed',
    merged,
    sender: 'maintainer',
    deliveryId: 'd-closed',
    at: AT,
  }),
  /** The delivery of booty's own push, sent while the PR was still draft and come after its promotion. */
  staleDraftPush: (sha = 'b'.repeat(40)): DomainEvent => ({
    type: 'PrUpdated',
    action: 'synchronize',
    headSha: sha,
    draft: true,
    sender: 'booty-bot',
    deliveryId: 'd-push',
    at: AT,
  }),
  draft: (draft: boolean): DomainEvent => ({
    type: 'PrUpdated',
    action: draft ? 'converted_to_draft' : 'ready_for_review',
    headSha: null,
    draft,
    sender: 'maintainer',
    deliveryId: `d-draft-${draft}`,
    at: AT,
  }),
};

/** The log of a job that has come this far on the happy path: one attempt, tests passing. */
export const happy = {
  preparing: () => [requested()],
  baselining: () => [...happy.preparing(), ok.prepared()],
  analyzing: () => [...happy.baselining(), ok.baseline()],
  generating: () => [...happy.analyzing(), ok.analyzed()],
  applying: () => [...happy.generating(), ok.generated()],
  testing: () => [...happy.applying(), ok.applied()],
  openingPr: () => [...happy.testing(), ok.tests(true)],
  promoting: () => [...happy.openingPr(), ok.pr()],
  /** Promoted: the PR is ready for review and the job waits with it. */
  promoted: () => [...happy.promoting(), ok.promoted()],
  /** Draft, CI pending on its head: the job waits for CI. */
  waitingForCi: () => [...happy.promoting(), ok.promoted(1, 'pending')],
};

/** Logs past the first attempt. */
export const later = {
  /** The first attempt's tests failed: the job refines, for attempt 2. */
  refining: () => [...happy.testing(), ok.tests(false)],
  /** Two attempts failed their tests: the job tests attempt 3, its last. */
  lastTest: () => [
    ...later.refining(),
    ok.refined(2),
    ok.applied(2),
    ok.tests(false, 2),
    ok.refined(3),
    ok.applied(3),
  ],
};

/** One step's retry deadline: the failure's time plus the backoff for its nth retry. */
export const retryAt = (n: number) => AT + 1000 * 2 ** n;

export const effect = (src: string, attempt: number, notBefore: number | null = null) => ({
  src,
  attempt,
  notBefore,
});

/**
 * Folds given + when and checks the row's state, effect and context. Every given event must be one
 * the job took (an event the machine ignores leaves the very same snapshot): a row's history is a
 * log the job could have written.
 */
export function check(row: Row): void {
  const events = [...row.given, row.when].map(({ type, ...data }) => ({ type, data }));
  const steps = foldSteps(events);
  const ignored = steps.slice(1, -1).findIndex((step, i) => step.snapshot === steps[i]!.snapshot);
  expect(ignored, `given event ${ignored + 2} is one the job does not take`).toBe(-1);
  expectTableAgrees(events, steps);
  const snapshot = foldJob(events);
  const state = stateName(snapshot);
  const invoke = (jobMachine.states[state]?.config.invoke as { src?: string } | undefined)?.src;
  const input = invoke ? effectInput(snapshot.context, invoke as never) : null;
  expect({
    state,
    effect: input ? { src: invoke, attempt: input.attempt, notBefore: input.notBefore } : null,
  }).toEqual({ state: row.expect.state, effect: row.expect.effect });
  // A resumed job restarts the effect its snapshot carries: the snapshot must carry it.
  expect(Object.keys(snapshot.children), 'the effect a resume starts').toEqual(invoke ? [invoke] : []);
  if (row.expect.context) expect(snapshot.context).toMatchObject(row.expect.context);
}

/**
 * The table boot folds through (decision-table.ts) stands where XState's fold stands after every
 * event, its context equal field by field.
 */
export function expectTableAgrees(events: LoggedEvent[], steps: FoldStep[] = foldSteps(events)): void {
  let at = initialDecision(jobInput(events[0]));
  for (const [i, step] of steps.entries()) {
    if (i > 0) {
      const next = decideNext(at, machineEventOf(events[i]!));
      // Where the table cannot say, XState's snapshot went into error, and the fold asks XState.
      if (next === null) {
        expect(step.snapshot.status, `event ${i + 1}`).toBe('error');
        return;
      }
      at = next;
    }
    expect({ state: at.value, context: at.context }, `event ${i + 1}`).toEqual({
      state: step.state,
      context: step.snapshot.context,
    });
  }
}

/** The job does not take this event: its snapshot stays the same one, so nothing is logged and a command is answered. */
export function expectNotTaken(given: DomainEvent[], when: DomainEvent): void {
  const snapshot = foldJob(given.map(({ type, ...data }) => ({ type, data })));
  expect(nextSnapshot(snapshot, when)).toBe(snapshot);
}
