import { afterEach } from 'vitest';
import type { CiScriptInput } from '../../../sim/github/github-sim-ci-script.js';
import type { CiRead } from '../../../src/events/effect-results.js';
import { createGitHubEffects } from '../../../src/forges/github/github-effects.js';
import {
  type EffectInput,
  effectInput,
  type JobContext,
  type Round,
} from '../../../src/machines/job-context.js';
import { jobContext, pushBranch, sampleDir, simFixture } from './sim-fixture.js';

// A job whose draft PR is open on the simulator, for the effects of the PR conversation: the
// branch is pushed, CI is scripted for it (when a script is given) before the PR opens, and the
// PR is opened over REST, as booty's own openPr would, so CI runs on its head.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

export const SECRET = `ghp_${'s'.repeat(36)}`;

export async function openPrFixture(opts: { ci?: Omit<CiScriptInput, 'branch' | 'sha'> } = {}) {
  const f = await simFixture();
  closers.push(() => f.sim.close());
  await f.sim.createRepo('acme', 'widgets', { fromDir: sampleDir() });
  f.sim.createIssue('acme', 'widgets', { title: 'Add an add() function' });
  const base = jobContext();
  const headSha = await pushBranch(
    f.clients.gitRemoteUrl(base.repo),
    await f.clients.gitCredentials(base),
    base.branch,
  );
  if (opts.ci) f.sim.scriptCi('acme', 'widgets', { branch: base.branch, ...opts.ci });
  const gh = await f.clients.forJob(base);
  const { data } = await gh.rest.pulls.create({
    owner: 'acme',
    repo: 'widgets',
    head: base.branch,
    base: 'main',
    title: 'Add add()',
    body: 'booty',
    draft: true,
  });
  await f.sim.settled();
  const job: JobContext = {
    ...base,
    pr: {
      at: 1,
      number: data.number,
      url: data.html_url,
      nodeId: data.node_id,
      draft: true,
      headSha,
      created: true,
    },
  };
  // The scrubber hides this value, as the runtime's hides the tokens booty holds.
  const scrub = (text: string) => text.split(SECRET).join('[redacted]');
  const effects = createGitHubEffects({ clients: f.clients, scrub });
  return { ...f, gh, job, headSha, effects };
}

export type PrFixture = Awaited<ReturnType<typeof openPrFixture>>;

/** The effect's input for the job, with CI as last read (what rerunCi and demotePr act on). */
export function inputWith(job: JobContext, step: EffectInput['step'], ci?: Omit<CiRead, 'at'>): EffectInput {
  const withCi = ci ? { ...job, conversation: { ...job.conversation, ci } } : job;
  return { ...effectInput(withCi, step), job: withCi };
}

/** The job in the middle of follow-up round `n`, answering these triggers. */
export function inRound(job: JobContext, n: number, triggers: Round['triggers']): JobContext {
  const round: Round = {
    n,
    triggers,
    firstAttempt: 2,
    base: job.pr!.headSha,
    result: null,
    commit: null,
    note: null,
  };
  return { ...job, round, conversation: { ...job.conversation, rounds: [round] } };
}

/** Request counts by operation id, from the simulator's request log. */
export const calls = (f: PrFixture, operation: string) =>
  f.sim.requests().filter((r) => r.operation === operation).length;
