import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startGitLabSimulator } from '../../../sim/gitlab/gitlab-simulator.js';
import { createGitLabClients } from '../../../src/forges/gitlab/clients.js';
import { gitlabProgress } from '../../../src/forges/gitlab/progress-note.js';
import { tempDir } from '../../support/job-harness.js';
import { pushBranch, sampleDir } from '../github/sim-fixture.js';

// On GitLab the PR body is the merge request's description: read as it stands, and replaced.

const TOKEN = `glpat-${'t'.repeat(20)}`;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (closers.length) await closers.pop()!();
});

describe('the merge request description, kept current', () => {
  it('is read as it stands and replaced, and writing it again changes nothing', async () => {
    const sim = await startGitLabSimulator({
      dir: path.join(tempDir('booty-gitlab-sim-'), 'gitlab'),
      tokens: [{ token: TOKEN, username: 'booty' }],
    });
    closers.push(() => sim.close());
    await sim.createProject('acme/widgets', { fromDir: sampleDir() });
    const clients = createGitLabClients({ url: sim.url, token: TOKEN });
    const repo = { forge: 'gitlab' as const, owner: 'acme', name: 'widgets' };
    await pushBranch(clients.gitRemoteUrl(repo), clients.gitCredentials(), 'booty/issue-1');
    const mr = await clients.call((gl) =>
      gl.MergeRequests.create(clients.project(repo), 'booty/issue-1', 'main', 'Add add()', {
        description: 'as opened',
      }),
    );
    const progress = gitlabProgress(clients);
    const target = { jobId: 'job-1', repo, issue: { number: 1 }, installationId: null, pr: mr.iid };

    expect(await progress.readPrBody(target)).toBe('as opened');
    await progress.updatePrBody(target, 'after round 1');
    expect(sim.mergeRequests('acme/widgets')[0]!.description).toBe('after round 1');
    await progress.updatePrBody(target, 'after round 1');
    expect(await progress.readPrBody(target)).toBe('after round 1');
  });
});
