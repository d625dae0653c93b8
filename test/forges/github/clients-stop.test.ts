import { afterEach, describe, expect, it } from 'vitest';
import { sleep, until } from '../../support/until.js';
import { sampleDir, simFixture } from './sim-fixture.js';

// At shutdown booty's GitHub clients abort what is in flight: a GitHub that takes a request and
// never answers must not hold the process until its grace runs out. The abort has to reach fetch
// through octokit's own hooks inside booty's (its auth, its request log).

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, sleep(ms).then(() => 'still waiting' as const)]);

describe('GitHub clients at shutdown', () => {
  it('abort REST and GraphQL requests GitHub never answers, and refuse the next at once', async () => {
    const { sim, clients } = await simFixture();
    closers.push(() => sim.close());
    await sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
    sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
    sim.fault('issues/list-comments', { kind: 'hang' });
    sim.fault('graphql', { kind: 'hang' });
    const gh = await clients.forRepo({ forge: 'github' as const, owner: 'acme', name: 'widgets' });
    const rest = gh.rest.issues
      .listComments({ owner: 'acme', repo: 'widgets', issue_number: 1 })
      .catch((err: unknown) => err);
    const graphql = gh.graphql('query { viewer { login } }').catch((err: unknown) => err);
    await until('both requests to hang', () => sim.requests().filter((r) => r.status === 0).length === 2);

    clients.stop();
    const shuttingDown = { name: 'BootyError', code: 'BOOTY_E_SHUTTING_DOWN' };
    expect(await settledWithin(rest, 2_000)).toMatchObject(shuttingDown);
    expect(await settledWithin(graphql, 2_000)).toMatchObject(shuttingDown);
    await expect(
      gh.rest.issues.get({ owner: 'acme', repo: 'widgets', issue_number: 1 }),
    ).rejects.toMatchObject(shuttingDown);
    // Nothing more reached GitHub after the stop.
    expect(sim.requests()).toHaveLength(2);
  });
});
