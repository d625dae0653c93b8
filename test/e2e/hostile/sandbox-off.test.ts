import { afterAll, describe, expect, it } from 'vitest';
import { stateName } from '../../../src/machines/job-states.js';
import { e2eWorld, SECRET, TOKEN } from '../e2e-world.js';
import {
  expectWallHeld,
  findings,
  fixtureRepo,
  hostileModel,
  onHost,
  rand,
  removeTemps,
  runsOf,
  shoutIssue,
  shoutSource,
  shoutTest,
  type World,
} from './hostile-harness.js';

// Case 8: the repository's booty.yml says `sandbox: off`, and the operator did not set
// BOOTY_SANDBOX. A repository may only ask for a stricter sandbox, so its tests still run under
// bubblewrap and cannot read /etc/shadow. The control reads it on the host.

let world: World | null = null;
afterAll(async () => {
  await world?.close();
  removeTemps(world);
});

describe('a repository that asks for no sandbox', () => {
  it('given `sandbox: off` in booty.yml and no BOOTY_SANDBOX, then every run is still in bubblewrap and /etc/shadow is not there', async () => {
    const repoDir = fixtureRepo('sandbox-off');
    const anthropicKey = `hostile-anthropic-key-${rand()}`;

    const host = await onHost(repoDir, ['test/attack-shadow.test.mjs']);
    expect(findings(host.output, 'read')).toEqual([
      { kind: 'read', label: 'shadow', ok: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);

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
    const env = world.env({ ANTHROPIC_API_KEY: anthropicKey });
    expect(env.BOOTY_SANDBOX).toBeUndefined();
    const booty = await world.startInProcess({ ANTHROPIC_API_KEY: anthropicKey });
    await world.label();
    const [job] = await booty.store.listJobs();
    const snapshot = await booty.server.supervisor.whenFinished(job!.jobId);

    expect(snapshot.context.config?.sandbox).toBe('off');
    expect(snapshot.context.baseline?.sandbox).toBe('bwrap');
    const runs = runsOf(snapshot);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.sandbox).toBe('bwrap');
      expect(findings(run.outputTail, 'read')).toEqual([
        { kind: 'read', label: 'shadow', ok: false, code: 'ENOENT' },
      ]);
      const [pids] = findings(run.outputTail, 'pids');
      expect(pids!.pids).toBeLessThan(10);
    }
    expect(stateName(snapshot)).toBe('promoted');
    await booty.runtime!.reporter.idle(snapshot.context.jobId);
    await expectWallHeld(world, snapshot, { secrets: [TOKEN, SECRET, anthropicKey], markers: [] });
  });
});
