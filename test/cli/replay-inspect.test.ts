import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineJson } from '../../src/machines/diagram.js';
import { machineEventOf } from '../../src/machines/fold.js';
import { jobMachine } from '../../src/machines/job.js';
import type { StoredEvent } from '../../src/store/records.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/job-harness.js';
import { type Message, parse, recordedJob, relayListener, viewer } from '../views/recorded-job.js';

/** Asserts the messages are the log played through the machine, event by event. */
function expectReplayOf(messages: Message[], events: StoredEvent[]) {
  // The machine definition comes first, with the root actor.
  const [first] = messages;
  expect(first).toMatchObject({ type: '@xstate.actor', name: 'job' });
  expect(first!.parentId).toBeUndefined();
  const definition = JSON.parse(first!.definition!);
  // The inspector's stringify sorts keys.
  expect(Object.keys(definition.states)).toEqual(Object.keys(jobMachine.root.states).sort());
  expect(definition.on).toEqual(machineJson().on);
  expect(definition.states.testing.invoke.onDone).toEqual(
    (machineJson() as any).states.testing.invoke.onDone,
  );

  const root = first!.sessionId;
  const rootEvents = messages.filter((m) => m.type === '@xstate.event' && m.sessionId === root);
  const rootSnapshots = messages.filter((m) => m.type === '@xstate.snapshot' && m.sessionId === root);
  // JobRequested is the actor's input; every later event is sent as recorded, in order.
  expect(rootEvents.map((m) => m.event!.type)).toEqual([
    'xstate.init',
    ...events.slice(1).map((e) => machineEventOf(e).type),
  ]);
  expect(rootEvents[0]!.event!.input).toMatchObject({ ...events[0]!.data, type: 'JobRequested' });
  rootEvents.slice(1).forEach((m, i) => {
    expect(m.event).toEqual(machineEventOf(events[i + 1]!));
  });
  expect(rootEvents.map((m) => m.createdAt)).toEqual(events.map((e) => String(e.at)));
  // Each event is followed by the snapshot it led to, and that is the recorded state.
  expect(rootSnapshots.map((m) => m.snapshot!.value)).toEqual(events.map((e) => e.state));
  rootEvents.forEach((e, i) => {
    const at = messages.indexOf(e);
    expect(messages.indexOf(rootSnapshots[i]!)).toBeGreaterThan(at);
    if (i > 0) expect(at).toBeGreaterThan(messages.indexOf(rootSnapshots[i - 1]!));
  });
  return { root, rootEvents, rootSnapshots };
}

/** Every invoked effect is an actor the inspector sees; none of them ever finished. */
function expectNoEffectRan(messages: Message[], root: string) {
  const children = messages.filter((m) => m.type === '@xstate.actor' && m.sessionId !== root);
  const childSnapshots = messages.filter((m) => m.type === '@xstate.snapshot' && m.sessionId !== root);
  expect(new Set(childSnapshots.map((m) => m.snapshot!.status))).toEqual(new Set(['active', 'stopped']));
  expect(childSnapshots.every((m) => m.snapshot!.output === undefined)).toBe(true);
  return children.map((m) => m.name);
}

describe('booty replay --inspect', () => {
  it('sends the definition, every recorded event in order with its snapshot, and runs no effect', async () => {
    const job = await recordedJob();
    const relay = await relayListener();
    const file = path.join(tempDir(), 'replay.jsonl');
    try {
      const { code, out, err } = await cli([
        'replay',
        job.jobId,
        '--inspect',
        '--relay',
        relay.url,
        '--export',
        file,
        '--db',
        job.db,
      ]);
      expect(err).toBe('');
      expect(code).toBe(0);
      await relay.done;
      expect(out).toContain(`job ${job.jobId}  acme/widgets#1: 12 events to promoted (verified)`);
      expect(out).toContain(`sent to the inspector relay at ${relay.url}`);

      const messages = parse(relay.received);
      const { root } = expectReplayOf(messages, job.events);
      const invoked = expectNoEffectRan(messages, root);
      // One inert actor per state entered, refine loop included: invoked, never run.
      expect(invoked).toEqual([
        'prepare',
        'runBaseline',
        'analyze',
        'generate',
        'applyChanges',
        'runTests',
        'refine',
        'applyChanges',
        'runTests',
        'openPr',
        'promotePr',
      ]);
      expect(job.effects.log).toHaveLength(job.callsWhenRecorded);
      // --export wrote exactly what the inspector was sent.
      expect(fs.readFileSync(file, 'utf8')).toBe(relay.received.map((l) => `${l}\n`).join(''));
    } finally {
      await relay.close();
    }
  });

  it('serves the replay to a viewer who connects after it was played, then exits with --once', async () => {
    const job = await recordedJob({ tests: [true] });
    const file = path.join(tempDir(), 'replay.jsonl');
    let opened: ReturnType<typeof viewer> | null = null;
    const run = cli(
      ['replay', job.jobId, '--inspect', '--port', '0', '--once', '--export', file, '--db', job.db],
      {
        onOut: (line) => {
          const url = /inspector: open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1];
          if (url) opened = viewer(url.replace('http:', 'ws:'));
        },
      },
    );
    const { code, out } = await run;
    expect(code).toBe(0);
    expect(out).toMatch(
      /inspector: open http:\/\/127\.0\.0\.1:\d+\/ {2}\(exits once a viewer has the replay\)/,
    );
    const v = opened as ReturnType<typeof viewer> | null;
    expect(v).not.toBeNull();
    expect(await v!.closed).toBe(1001);
    const exported = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(v!.received).toEqual(exported);
    const { root } = expectReplayOf(parse(v!.received), job.events);
    expectNoEffectRan(parse(v!.received), root);
  });

  it('--until N plays the log up to event N, inside the refine loop and across a retry', async () => {
    const job = await recordedJob({ tests: [false, true], outcomes: { runTests: ['transient'] } });
    const states = job.events.map((e) => e.state);
    // The retry re-enters testing; the failed run then leads into the refine loop.
    const retry = job.events.findIndex((e) => e.type === 'StepFailed' && e.data.step === 'test') + 1;
    const refining = states.indexOf('refining') + 1;
    expect(states[retry - 1]).toBe('testing');
    const dir = tempDir();
    for (const n of [1, retry, refining, refining + 1, job.events.length]) {
      const file = path.join(dir, `until-${n}.jsonl`);
      const { code } = await cli([
        'replay',
        job.jobId,
        '--export',
        file,
        '--until',
        String(n),
        '--db',
        job.db,
      ]);
      expect(code).toBe(0);
      const played = job.events.slice(0, n);
      const messages = parse(fs.readFileSync(file, 'utf8').trimEnd().split('\n'));
      const { rootSnapshots } = expectReplayOf(messages, played);
      // The inspector ends where the fold's snapshot after event N stands.
      const folded = JSON.parse(
        (await cli(['replay', job.jobId, '--json', '--until', String(n), '--db', job.db])).out,
      );
      const last = rootSnapshots[rootSnapshots.length - 1]!.snapshot!;
      expect(last.value).toBe(folded.snapshot.state);
      expect(last.context.attempt).toBe(folded.snapshot.context.attempt);
      expect(last.context.error).toEqual(folded.snapshot.context.error);
    }
    const retried = JSON.parse(
      (await cli(['replay', job.jobId, '--json', '--until', String(retry), '--db', job.db])).out,
    );
    expect(retried.snapshot.context.error).toMatchObject({ step: 'runTests', retries: 1 });
  });

  it('prints the snapshot after event N in the readable timeline', async () => {
    const job = await recordedJob();
    const { code, out } = await cli(['replay', job.jobId, '--until', '7', '--db', job.db]);
    expect(code).toBe(0);
    expect(out).toContain('snapshot after event 7:');
    const snapshot = JSON.parse(out.slice(out.indexOf('{')));
    expect(snapshot).toMatchObject({ state: 'refining', context: { attempt: 2 } });
    expect(snapshot.context.attempts).toHaveLength(1);
    expect(snapshot.context.attempts[0].test.passed).toBe(false);
  });

  it('refuses flags that do not go together, and names a relay it cannot reach', async () => {
    const job = await recordedJob({ tests: [true] });
    const usage = async (args: string[], reason: string) => {
      const r = await cli(['replay', job.jobId, ...args, '--db', job.db]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(reason);
    };
    await usage(['--port', '8080'], '--port needs --inspect');
    await usage(['--once'], '--once needs --inspect');
    await usage(['--inspect', '--json'], 'does not go with --inspect or --export');
    await usage(['--inspect', '--port', '70000'], '--port must be a port number from 0 to 65535');
    await usage(['--inspect', '--port', '1', '--relay', 'ws://127.0.0.1:1'], 'pick one');
    const relay = await relayListener();
    await relay.close();
    const down = await cli(['replay', job.jobId, '--inspect', '--relay', relay.url, '--db', job.db]);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(
      new RegExp(`the inspector could not reach ${relay.url}: .*ECONNREFUSED.*BOOTY_E_INSPECTOR`),
    );
  });
});
