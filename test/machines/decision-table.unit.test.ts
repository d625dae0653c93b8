import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/events/catalogue.js';
import {
  foldChecked,
  foldSteps,
  initialSnapshot,
  jobInput,
  machineEventOf,
  nextSnapshot,
} from '../../src/machines/fold.js';
import { jobMachine } from '../../src/machines/job.js';
import {
  cancelled,
  command,
  expectTableAgrees,
  failed,
  happy,
  later,
  ok,
  outside,
  requested,
  requestedBeforeCollaborator,
  requestedBeforeControls,
} from './decider/decider.js';

// The table boot folds through (decision-table.ts) against XState's own fold, on logs no table row
// wrote: any order of what effects and people can log, taken or not, after any kind of request.
// Every decider table row is checked the same way (decider.ts, check).

const logged = (events: DomainEvent[]) => events.map(({ type, ...data }) => ({ type, data }));

const request = fc.constantFrom(
  requested(),
  requested({ maxAttempts: 1 }),
  requested({ maxTokens: 250 }),
  requested({ planApproval: true }),
  requestedBeforeControls(),
  requestedBeforeCollaborator(),
);
const attempt = fc.integer({ min: 1, max: 4 });
const step = fc.constantFrom(
  'prepare',
  'baseline',
  'analyze',
  'generate',
  'refine',
  'apply',
  'test',
  'openPr',
  'promote',
  'ci',
  'sync',
  'answer',
  'question',
  'escalate',
  'plan',
) as fc.Arbitrary<Parameters<typeof failed>[0]>;
const event: fc.Arbitrary<DomainEvent> = fc.oneof(
  fc.constant(ok.prepared()),
  fc.constant(ok.baseline()),
  fc.constant(ok.brokenBaseline()),
  fc.constant(ok.analyzed()),
  fc.constant(ok.analyzed(5_000)),
  attempt.map((n) => ok.generated(n)),
  attempt.map((n) => ok.refined(n)),
  attempt.map((n) => ok.applied(n)),
  attempt.map((n) => ok.rejected(n)),
  fc.tuple(fc.boolean(), attempt).map(([passed, n]) => ok.tests(passed, n)),
  attempt.map((n) => ok.unknownTests(n)),
  attempt.map((n) => ok.pr(n)),
  attempt.map((n) => ok.promoted(n)),
  fc.constantFrom('passed', 'failed', 'pending').map((s) => ok.ci(s as 'passed')),
  fc.constant(ok.rerun()),
  fc.constant(ok.demoted()),
  fc.constant(ok.synced()),
  fc.constant(ok.answered(1, 'b'.repeat(40))),
  fc.constant(ok.questionAnswered()),
  fc.tuple(step, fc.boolean(), attempt).map(([s, retryable, n]) => failed(s, retryable, n)),
  fc.constantFrom('continue', 'approve', 'revise', 'retry', 'cancel').map((w) => command(w as 'retry')),
  fc.constant(cancelled()),
  fc.constant(outside.review()),
  fc.constant(outside.question()),
  fc.constantFrom('retry', 'stop', 'cancel').map((w) => outside.command(w as 'retry')),
  fc.constant(outside.ciDone()),
  fc.boolean().map((merged) => outside.closed(merged)),
  fc.boolean().map((draft) => outside.draft(draft)),
);
/** Mostly the happy path's next step, so logs reach the PR's life; anything else between. */
const log = fc
  .tuple(request, fc.array(event, { minLength: 1, maxLength: 40 }), fc.array(fc.boolean(), { maxLength: 40 }))
  .map(([first, rest, happy]) => {
    const path = [
      ok.prepared(),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(),
      ok.applied(),
      ok.tests(true),
      ok.pr(),
      ok.promoted(),
    ];
    const events: DomainEvent[] = [first];
    for (const [i, e] of rest.entries()) events.push(happy[i] && path.length ? path.shift()! : e);
    return logged(events);
  });

describe('the decision table', () => {
  it('stands where XState stands after every event of any log, with the same context', () => {
    fc.assert(
      fc.property(log, (events) => {
        expectTableAgrees(events);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees when people speak at any point of a job that reaches its PR, or refines and exhausts', () => {
    const paths = [
      [...happy.promoted(), outside.ciDone(), ok.ci('failed'), ok.synced()],
      [...happy.waitingForCi(), outside.ciDone(), ok.ci('passed')],
      [...later.lastTest(), ok.tests(false, 3), ok.pr(3)],
    ];
    const said = [
      outside.review(),
      outside.review('@booty fix it', true),
      outside.question(),
      outside.ciDone(),
    ];
    for (const path of paths)
      for (const e of said)
        for (let at = 1; at <= path.length; at++)
          expectTableAgrees(logged([...path.slice(0, at), e, ...path.slice(at)]));
  });

  it("folds a log to the real machine's snapshot, ready to resume, and finds the same divergence", () => {
    fc.assert(
      fc.property(log, fc.nat(), (events, at) => {
        const steps = foldSteps(events);
        const last = steps[steps.length - 1]!;
        // A recorded state the machine does not reach: both folds name the same row.
        const seq = 2 + (at % (events.length - 1 || 1));
        const recorded = events.map((e, i) => ({ ...e, state: i + 1 === seq ? 'nowhere' : steps[i]!.state }));
        const { snapshot, divergence } = foldChecked(recorded);
        // Ready to resume as the real machine, taking every event itself, leaves the job.
        const real = events
          .slice(1)
          .reduce((at, e) => nextSnapshot(at, machineEventOf(e)), initialSnapshot(jobInput(events[0])));
        // (A failure the state does not take puts XState in error: no job logs one.)
        fc.pre(real.status !== 'error' && real.error === undefined);
        expect(jobMachine.getPersistedSnapshot(snapshot)).toEqual(jobMachine.getPersistedSnapshot(real));
        expect(Object.keys(snapshot.children)).toEqual(Object.keys(real.children));
        expect(last.state).toBe(real.value);
        expect(divergence?.seq ?? null).toBe(seq <= events.length ? seq : null);
      }),
      { numRuns: 200 },
    );
  });
});
