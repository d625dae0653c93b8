import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { demoResponder } from '../../src/demo/demo-script.js';
import { serveProcess as serve } from '../support/serve-process.js';
import { until } from '../support/until.js';
import { e2eWorld, OWNER, REPO, TOKEN } from './e2e-world.js';

// A deploy during a GitHub outage: `booty serve` (the real CLI, in a child process) has two jobs
// waiting on the model when GitHub goes away and SIGTERM arrives. It must exit 0 well inside a
// process manager's grace, leave no process behind, and a restart must finish both jobs with
// exactly one pull request each: nothing the log held is lost, and nothing is done twice.

const worlds: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close().catch(() => {});
});

describe('shutdown while GitHub is down', () => {
  it('exits 0 within the grace with two jobs in flight, and the restart finishes both, one PR each', async () => {
    // The model holds every analysis until released, so both jobs wait in `analyzing`.
    let release = false;
    let asked = 0;
    const scripted = demoResponder('pass');
    const responder: Responder = async (request) => {
      if (request.toolName === 'submit_analysis') {
        asked++;
        await until('the release', () => release, 120_000);
      }
      return scripted(request);
    };
    const w = await e2eWorld('pass', { responder });
    worlds.push(w);
    const second = (
      w.github.createIssue(OWNER, REPO, { title: 'Parse hours too', body: 'Like "2h".' }) as {
        number: number;
      }
    ).number;
    const env = w.env({ LOG_LEVEL: 'warn', BOOTY_CONCURRENCY: '2', BOOTY_SHUTDOWN_GRACE_MS: '10000' });

    const first = serve(env);
    w.github.setWebhook({ url: `${await first.url}/webhooks`, secret: 'e2e-webhook-secret' });
    await w.label();
    await w.github.labelIssue(OWNER, REPO, second, 'booty');
    await until('both jobs to ask the model', () => asked === 2);

    const port = Number(new URL(w.github.url).port);
    await w.github.close();
    const stopping = Date.now();
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(12_000);
    // Nothing of the job is left running: no git, no sandbox, nothing in its workdir.
    const left = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(w.dir));
    expect(left).toEqual([]);

    // GitHub is back, on the same address and state; the model answers; booty starts again.
    const github = await startGitHubSimulator({
      dir: path.join(w.dir, 'github'),
      port,
      tokens: [{ token: TOKEN, login: 'booty-bot' }],
    });
    worlds.push(github);
    release = true;
    const next = serve(env);
    github.setWebhook({ url: `${await next.url}/webhooks`, secret: 'e2e-webhook-secret' });
    try {
      await until(
        'two pull requests promoted',
        () => {
          const pulls = github.pulls(OWNER, REPO);
          return pulls.length === 2 && pulls.every((p) => !p.draft);
        },
        60_000,
      );
      const pulls = github.pulls(OWNER, REPO);
      expect(new Set(pulls.map((p) => p.head)).size).toBe(2);
      // One progress comment per job, brought up to date by the restart.
      for (const issue of [w.issue, second]) {
        const progress = github
          .comments(OWNER, REPO, issue)
          .filter((c) => c.body.includes('<!-- booty:progress job='));
        expect(progress).toHaveLength(1);
      }
    } finally {
      next.proc.kill('SIGTERM');
      expect(await next.exited).toBe(0);
    }
  }, 120_000);
});

describe('shutdown while GitHub and the model hang', () => {
  it('exits 0 within 5 s of SIGTERM, aborting the requests in flight instead of waiting on them', async () => {
    // The model never answers the analysis, and GitHub never answers the 👀 reaction the progress
    // comment starts with: at SIGTERM a request to each is in flight, on a connection held open.
    let asked = 0;
    const scripted = demoResponder('pass');
    const responder: Responder = async (request) => {
      if (request.toolName === 'submit_analysis') {
        asked++;
        await new Promise(() => {});
      }
      return scripted(request);
    };
    const w = await e2eWorld('pass', { responder });
    worlds.push(w);
    w.github.fault('reactions/create-for-issue', { kind: 'hang' });
    const s = serve(w.env({ LOG_LEVEL: 'warn', BOOTY_SHUTDOWN_GRACE_MS: '10000' }));
    w.github.setWebhook({ url: `${await s.url}/webhooks`, secret: 'e2e-webhook-secret' });
    await w.label();
    await until('the model to be asked', () => asked === 1);
    await until('the reaction to hang', () =>
      w.github.requests().some((r) => r.operation === 'reactions/create-for-issue' && r.status === 0),
    );

    const stopping = Date.now();
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5_000);
    // Not cut off by the grace: the requests were aborted, and booty stopped on its own.
    expect(s.out()).not.toContain('shutdown grace is over');
  }, 60_000);
});
