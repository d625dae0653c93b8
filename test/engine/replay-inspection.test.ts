import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { effectActors } from '../../src/engine/effect.js';
import { replayInspection } from '../../src/engine/replay-inspection.js';
import { jobInput } from '../../src/machines/fold.js';
import { inertMachine } from '../../src/machines/inert-machine.js';
import { jobMachine } from '../../src/machines/job.js';
import { harness, sampleRequest } from '../support/job-harness.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { parse, recordedJob } from '../views/recorded-job.js';

describe('replaying a log into the inspector', () => {
  it('given a machine with real effects provided, replaces every one of them: none is called', async () => {
    const job = await recordedJob({ tests: [false, false, true] });
    const effects = scriptedEffects({});
    const machine = jobMachine.provide({
      actors: effectActors(effects.impls, { ready: async () => true }) as any,
    });
    const { steps, messages } = await replayInspection(job.events, { machine });
    expect(effects.log).toEqual([]);
    expect(steps.map((s) => s.state)).toEqual(job.events.map((e) => e.state));
    expect(steps.every((s) => s.state === s.recorded)).toBe(true);
    expect(steps.filter((s) => s.state === 'refining')).toHaveLength(2);
    expect(parse(messages).filter((m) => m.snapshot?.status === 'done' && m.sessionId !== m.rootId)).toEqual(
      [],
    );
  });

  it('an inert actor stays in its first state: its effect never settles', async () => {
    const input = jobInput({
      type: 'JobRequested',
      data: { ...sampleRequest(), jobId: 'j1', deliveryId: 'd1', requestedAt: 1, settings: {} },
    });
    const actor = createActor(inertMachine(), { input }).start();
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('preparing');
    expect(actor.getSnapshot().children.prepare?.getSnapshot().status).toBe('active');
    actor.stop();
  });

  it('replays a job cancelled while an effect was in flight, to the end of its log', async () => {
    let cancel = () => {};
    const h = harness(
      { delayMs: 5 },
      {
        observers: [
          {
            changed: (c) => {
              if (c.eventType === 'StepSucceeded' && c.snapshot.context.analysis) queueMicrotask(cancel);
            },
          },
        ],
      },
    );
    const r = await h.request();
    if (r.outcome !== 'created') throw new Error(r.outcome);
    let cancelled: Promise<unknown> = Promise.resolve();
    cancel = () => {
      cancelled = h.supervisor.cancel(r.jobId, { reason: 'unlabeled', sender: 'octocat' });
    };
    await h.supervisor.whenFinished(r.jobId);
    await cancelled;
    const events = await h.store.readStream(r.jobId);
    await h.store.close();
    expect(events.map((e) => [e.type, e.data.step]).slice(-2)).toEqual([
      ['StepSucceeded', 'analyze'],
      ['JobCancelled', undefined],
    ]);
    const { steps, messages } = await replayInspection(events);
    expect(steps.map((s) => s.state)).toEqual([
      'preparing',
      'baselining',
      'analyzing',
      'generating',
      'cancelled',
    ]);
    const last = parse(messages)
      .filter((m) => m.type === '@xstate.snapshot' && m.sessionId === m.rootId)
      .pop();
    expect(last!.snapshot).toMatchObject({ status: 'done', value: 'cancelled' });
    expect(last!.snapshot!.context.outcome.reason).toBe('unlabeled');
  });
});
