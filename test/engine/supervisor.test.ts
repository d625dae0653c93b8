import { describe, expect, it } from 'vitest';
import { isBootyError } from '../../src/errors.js';
import { harness } from '../support/job-harness.js';

const delivery = (id: string) => ({ id, event: 'issues', action: 'labeled' });

describe('supervisor: deliveries that start nothing', () => {
  it('given deliveries arriving together, when recorded, then each id is stored once and the repeats are duplicates', async () => {
    const h = harness();
    const ids = Array.from({ length: 10 }, (_, i) => `d-${i}`);
    const results = await Promise.all(
      [...ids, ...ids].map((id) => h.intake.ignore(delivery(id), 'not the trigger label')),
    );
    expect(results.filter((r) => r.outcome === 'ignored')).toHaveLength(10);
    expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(10);
    expect(results.slice(0, 10).every((r) => r.outcome === 'ignored')).toBe(true);
    // Durable: every id is in the deliveries table already.
    const again = ids.map((id) => ({
      deliveryId: id,
      event: 'issues',
      action: 'labeled',
      outcome: 'x',
      jobId: null,
    }));
    expect(await h.store.recordDeliveries(again)).toEqual(ids.map(() => false));
    expect(await h.store.listJobs()).toEqual([]);
  });

  it('given a shutdown, then deliveries already waiting are committed and new ones are refused', async () => {
    const h = harness();
    const waiting = h.intake.ignore(delivery('before'), 'other event');
    await h.supervisor.shutdown();
    expect(await waiting).toEqual({ outcome: 'ignored', reason: 'other event' });
    const refused = await h.intake.ignore(delivery('after'), 'other event').catch((err) => err);
    expect(isBootyError(refused, 'BOOTY_E_SHUTTING_DOWN')).toBe(true);
  });

  it('given a store that fails, then every delivery in the batch is rejected, none is half-recorded', async () => {
    const h = harness();
    const batch = [h.intake.ignore(delivery('x1'), 'r'), h.intake.ignore(delivery('x2'), 'r')];
    h.store.close();
    const outcomes = await Promise.allSettled(batch);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('supervisor: a cancel for a job that finished meanwhile', () => {
  it('records the delivery alone and answers ignored, and the same delivery again is a duplicate', async () => {
    const first = harness({ delayMs: 60_000 });
    const r = await first.request();
    if (r.outcome !== 'created') throw new Error(r.outcome);
    await first.supervisor.shutdown();
    // The log ends the job while its read model still shows it active: the window a cancel can meet.
    await first.store.append(r.jobId, 1, [
      {
        type: 'JobCancelled',
        data: { reason: 'operator', sender: 'someone', deliveryId: null, at: 1 },
        state: 'cancelled',
      },
    ]);
    await first.store.close();

    const h = harness({}, { db: first.db });
    const cancel = {
      kind: 'cancel' as const,
      repo: { owner: 'acme', name: 'widgets' },
      issue: 1,
      reason: 'unlabeled' as const,
      sender: 'octocat',
    };
    const d = { id: 'late-cancel', event: 'issues', action: 'unlabeled' };
    expect(await h.intake.submit(d, cancel)).toEqual({
      outcome: 'ignored',
      reason: 'the job already finished',
    });
    expect(await h.intake.submit(d, cancel)).toEqual({ outcome: 'duplicate' });
    expect((await h.store.readStream(r.jobId)).map((e) => e.type)).toEqual(['JobRequested', 'JobCancelled']);
    await h.store.close();
  });
});

describe('supervisor: an event that comes while a job parks', () => {
  it('given CI on the head while the parked job settles, then the job runs again, reads CI and parks again', async () => {
    let release!: () => void;
    const settling = new Promise<void>((resolve) => {
      release = resolve;
    });
    const parks: string[] = [];
    const h = harness(
      {},
      {
        observers: [
          {
            // The first park holds its runner registered until the CI event is in.
            settled: async (_, snapshot) => {
              parks.push(String(snapshot.value));
              if (parks.length === 1) await settling;
            },
          },
        ],
      },
    );
    const r = await h.request();
    if (r.outcome !== 'created') throw new Error(r.outcome);
    while (parks.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    const woke = await h.intake.submit(
      { id: 'd-ci', event: 'check_suite', action: 'completed' },
      {
        kind: 'wake',
        repo: { owner: 'acme', name: 'widgets' },
        target: { pr: 7 },
        event: { type: 'CiCompleted', headSha: 'b'.repeat(40), source: 'check_suite', conclusion: 'success' },
      },
    );
    expect(woke).toEqual({ outcome: 'woke', jobId: r.jobId });
    release();
    await h.supervisor.onIdle();

    const events = await h.store.readStream(r.jobId);
    expect(events.slice(-3).map((e) => [e.type, e.state])).toEqual([
      ['StepSucceeded', 'promoted'],
      ['CiCompleted', 'checkingCi'],
      ['StepSucceeded', 'promoted'],
    ]);
    expect(h.effects.log.at(-1)).toBe(`${r.jobId}:readCi:1:${'b'.repeat(40)}`);
    expect(parks).toEqual(['promoted', 'promoted']);
    await h.store.close();
  });
});
