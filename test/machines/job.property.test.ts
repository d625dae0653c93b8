import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldJob } from '../../src/machines/fold.js';
import { jobMachine } from '../../src/machines/job.js';
import { maxAttemptsOf } from '../../src/machines/job-context.js';
import { harness } from '../support/job-harness.js';
import type { Outcome, Script } from '../support/scripted-effects.js';

// Random effect outcomes, real runner and SQLite log: whatever happens, the job ends, the refine
// loop stays bounded, and the log folds to exactly the snapshot the live actor holds.

const outcome = fc.constantFrom<Outcome>('ok', 'ok', 'ok', 'transient', 'permanent');
const outcomes = fc.array(outcome, { maxLength: 4 });
const script = fc.record({
  tests: fc.array(fc.boolean(), { maxLength: 5 }),
  maxAttempts: fc.integer({ min: 1, max: 4 }),
  rejectAttempts: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
  tokensPerCall: fc.integer({ min: 10, max: 400 }),
  outcomes: fc.record(
    {
      prepare: outcomes,
      analyze: outcomes,
      generate: outcomes,
      refine: outcomes,
      runTests: outcomes,
      openPr: outcomes,
      promotePr: outcomes,
    },
    { requiredKeys: [] },
  ),
}) as fc.Arbitrary<Script>;
const settings = fc.record({
  maxRetries: fc.integer({ min: 0, max: 3 }),
  maxTokens: fc.option(fc.integer({ min: 200, max: 3000 }), { nil: null }),
});

const plain = (x: unknown) => JSON.parse(JSON.stringify(x));

describe('job machine properties', () => {
  it('always ends or waits with its PR, never exceeds maxAttempts, and the folded log equals the live snapshot after every event', async () => {
    await fc.assert(
      fc.asyncProperty(script, settings, fc.boolean(), async (s, jobSettings, self) => {
        // Each event is decided once, by the live actor, and the runner records that transition: the
        // snapshot written with event k is the very one the actor reported for it, and the log's
        // first k events must fold to it.
        const taken = new Set<unknown>();
        const lives: { jobId: string; version: number; live: unknown; event: string; own: boolean }[] = [];
        const h = harness(s, {
          settings: jobSettings,
          isSelf: () => self,
          observers: [
            {
              changed: (c) =>
                lives.push({
                  jobId: c.jobId,
                  version: c.version,
                  live: plain(jobMachine.getPersistedSnapshot(c.snapshot)),
                  event: c.eventType,
                  own: taken.has(c.snapshot),
                }),
            },
          ],
          inspect: (ev) => {
            if (ev.type !== '@xstate.snapshot' || ev.actorRef.sessionId !== ev.rootId) return;
            // Its start and its stop (parking) are the runner's doing, not events of the job.
            if (ev.event.type === 'xstate.init' || ev.event.type === 'xstate.stop') return;
            taken.add(ev.snapshot);
          },
        });
        const r = await h.request();
        if (r.outcome !== 'created') throw new Error(r.outcome);
        const snapshot = await h.supervisor.whenFinished(r.jobId);
        const mismatches: string[] = [];
        let checked = 0;
        for (const { jobId, version, live, event, own } of lives) {
          const log = await h.store.readStream(jobId, { toVersion: version });
          const folded = plain(jobMachine.getPersistedSnapshot(foldJob(log)));
          checked++;
          if (JSON.stringify(live) !== JSON.stringify(folded)) mismatches.push(event);
          // The request is written before any actor runs; every later event is the actor's own.
          if (version > 1 && !own) mismatches.push(`${event} (not the actor's own transition)`);
        }

        // It ends, or it waits with its PR, parked, for a person or CI.
        if (snapshot.status === 'done') expect(snapshot.value).toBe('failed');
        // Or parked at its token budget, for a writer's `@booty continue`.
        else expect(['promoted', 'prOpened', 'budgetExhausted']).toContain(snapshot.value);
        expect(snapshot.context.attempt).toBeLessThanOrEqual(maxAttemptsOf(snapshot.context));
        const testRuns = h.effects.log.filter((k) => k.includes(':runTests:'));
        expect(new Set(testRuns).size).toBeLessThanOrEqual(maxAttemptsOf(snapshot.context));
        expect(checked).toBeGreaterThan(1);
        expect(mismatches).toEqual([]);
        expect(plain(jobMachine.getPersistedSnapshot(foldJob(await h.store.readStream(r.jobId))))).toEqual(
          plain(jobMachine.getPersistedSnapshot(snapshot)),
        );
        await h.store.close();
      }),
      { numRuns: 60 },
    );
  });
});
