// The jobs the fold benchmarks read back: one real job run on the store under test, copied.
import { Supervisor } from '../src/engine/supervisor.js';
import { Intake } from '../src/intake/deliveries.js';
import type { EventStore } from '../src/store/event-store.js';
import { sampleRequest } from '../test/support/job-harness.js';
import { scriptedEffects } from '../test/support/scripted-effects.js';

export const EVENTS_PER_JOB = 30;

/**
 * Runs one real job on the store, with refines and retries so it writes at least EVENTS_PER_JOB
 * events, then copies its first EVENTS_PER_JOB into more jobs: the ids of all `jobs` of them.
 */
export async function recordJobs(store: EventStore, jobs: number): Promise<string[]> {
  const effects = scriptedEffects({
    tests: [false, false, false, false, true],
    maxAttempts: 5,
    // The same failure four times would stall the loop at attempt 3: this job runs all five.
    config: { stallAfter: 10 },
    outcomes: {
      prepare: ['transient'],
      analyze: ['transient'],
      generate: ['transient'],
      refine: ['transient', 'transient'],
      applyChanges: ['transient'],
      runTests: ['transient', 'ok', 'transient'],
      openPr: ['transient'],
    },
  });
  const supervisor = new Supervisor({
    store,
    effects: effects.impls,
    settings: { retryBaseMs: 1, retryCapMs: 2 },
  });
  const intake = new Intake(supervisor);
  const r = await intake.submit(
    { id: 'bench', event: 'issues', action: 'labeled' },
    { kind: 'request', request: sampleRequest(1) },
  );
  if (r.outcome !== 'created') throw new Error(r.outcome);
  await supervisor.whenFinished(r.jobId);
  await supervisor.shutdown();
  const template = (await store.readStream(r.jobId)).slice(0, EVENTS_PER_JOB);
  if (template.length < EVENTS_PER_JOB)
    throw new Error(`the recorded job has only ${template.length} events`);
  const ids = [r.jobId];
  for (let j = 1; j < jobs; j++) {
    const jobId = `job-${j}`;
    ids.push(jobId);
    await store.append(
      jobId,
      0,
      template.map((e, i) => ({
        type: e.type,
        version: e.schemaVersion,
        // The copy's JobRequested names the copy.
        data: i === 0 ? { ...e.data, jobId } : e.data,
        state: e.state,
        meta: e.meta,
      })),
    );
  }
  return ids;
}
