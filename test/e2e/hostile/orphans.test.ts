import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { stateName } from '../../../src/machines/job-states.js';
import { e2eWorld, SECRET, TOKEN } from '../e2e-world.js';
import {
  eventually,
  expectWallHeld,
  fixtureRepo,
  hostileModel,
  killMarked,
  liveWithMarker,
  rand,
  removeTemps,
  shoutIssue,
  shoutSource,
  shoutTest,
  type World,
} from './hostile-harness.js';

// Case 7: a test that starts 300 SIGTERM-deaf processes, half of them in their own session, and
// then hangs past the repository's 30 s timeout: room for a loaded machine to start all 300 before the
// timeout ends the run (at 10 s, a CI machine under load had not). When the job ends, none of them is
// alive. The control runs the same test on the host and kills its process group, as a plain timeout would:
// the setsid'd ones survive it.

const id = rand(6);
const MARKER = `hostile-orphan-${id}`;
const CONTROL_MARKER = `hostile-orphan-control-${id}`;

let world: World | null = null;
afterAll(async () => {
  await killMarked(CONTROL_MARKER);
  await world?.close();
  removeTemps(world);
});

describe('a test that outlives its run', () => {
  it('given 300 setsid’d, double-forked, SIGTERM-deaf children and a hang past timeoutSeconds, then after the job none is alive', async () => {
    const repoDir = fixtureRepo('orphans', { 'orphan-marker.txt': `${MARKER}\n` });

    // Control: on the host, a kill of the test's process group leaves the setsid'd ones running.
    const control = spawn(process.execPath, ['--test', 'test/orphans.test.mjs'], {
      cwd: repoDir,
      env: { ...process.env, HOSTILE_ORPHANS: '20', HOSTILE_ORPHAN_MARKER: CONTROL_MARKER },
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise((r) => control.on('exit', r));
    expect(await eventually(() => liveWithMarker(CONTROL_MARKER).length === 20)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(liveWithMarker(CONTROL_MARKER)).toHaveLength(20);
    process.kill(-control.pid!, 'SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, 100));
    expect(liveWithMarker(CONTROL_MARKER)).toHaveLength(10);
    await killMarked(CONTROL_MARKER);

    const anthropicKey = `hostile-anthropic-key-${rand()}`;
    world = await e2eWorld('pass', {
      repoDir,
      issue: shoutIssue,
      responder: hostileModel({
        explanation: 'Adds shout(name).',
        changes: [
          { path: 'src/greet.js', content: shoutSource },
          { path: 'test/shout.test.mjs', content: shoutTest },
        ],
      }),
    });
    const booty = await world.startInProcess({ BOOTY_SANDBOX: 'required', ANTHROPIC_API_KEY: anthropicKey });
    await world.label();
    const [job] = await booty.store.listJobs();
    const finished = booty.server.supervisor.whenFinished(job!.jobId);
    // Inside the sandbox they all started, and the host can see them.
    expect(await eventually(() => liveWithMarker(MARKER).length === 300, 30_000)).toBe(true);

    const snapshot = await finished;
    expect(liveWithMarker(MARKER)).toEqual([]);
    expect(stateName(snapshot)).toBe('failed');
    expect(snapshot.context.outcome?.reason).toBe('test-command-timeout');
    expect(snapshot.context.baseline).toMatchObject({ timedOut: true, sandbox: 'bwrap' });
    await booty.runtime!.reporter.idle(snapshot.context.jobId);
    await expectWallHeld(world, snapshot, { secrets: [TOKEN, SECRET, anthropicKey], markers: [MARKER] });
  }, 120_000);
});
