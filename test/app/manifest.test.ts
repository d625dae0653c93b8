import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { describeNeed, operationNeeds } from '../../sim/github/github-sim-permissions.js';
import { readManifest } from '../../src/app/manifest.js';
import { loadEnv } from '../../src/env.js';
import { classifyDelivery } from '../../src/forges/github/classify.js';
import { intakeConfig } from '../../src/intake/intake-config.js';
import { e2eWorld, OWNER, REPO } from '../e2e/e2e-world.js';
import { tempDir } from '../support/job-harness.js';
import { until } from '../support/until.js';
import { actAsBrowser, runAppCreate } from './manifest-browser.js';

// app.yml asks for exactly what booty uses: the events it acts on, and the permissions of every
// request a whole job makes when it runs as an App registered from app.yml (the simulator gives
// such an App only what its manifest asked for, and records what each request needed).

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!().catch(() => {});
});

const appYml = readManifest();
const definitions = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];

describe('app.yml', () => {
  it('is the manifest booty ships: it parses, and asks for no name GitHub would reject as taken', () => {
    expect(parseYaml(fs.readFileSync(path.resolve(import.meta.dirname, '../../app.yml'), 'utf8'))).toEqual(
      appYml,
    );
    expect(appYml.name).toBeUndefined(); // `booty app create --name` gives it
  });

  it('subscribes to exactly the events booty acts on', () => {
    const config = intakeConfig(loadEnv({ GITHUB_WEBHOOK_SECRET: 's', BOOTY_TRIGGER_LABEL: 'booty' }));
    const acted = new Set<string>();
    for (const def of definitions) {
      for (const example of def.examples as any[]) {
        // Every label is the trigger label, every branch a booty branch and every comment or review
        // calls on @booty: so an event that can start, stop or wake a job does.
        const payload = asBootys(structuredClone(example));
        let intent: string;
        try {
          intent = classifyDelivery(def.name, payload, config).intent.kind;
        } catch {
          continue; // a shape booty refuses is not one it acts on
        }
        if (intent !== 'ignore') acted.add(def.name);
      }
    }
    expect([...acted].sort()).toEqual([...appYml.default_events].sort());
  });

  it('asks for exactly the permissions a whole job needs, run as an App registered from it', async () => {
    const world = await e2eWorld('pass');
    closers.push(() => world.close());
    const dir = tempDir('booty-app-');
    const envFile = path.join(dir, '.env');
    const run = runAppCreate(
      { env: envFile, name: 'booty-manifest', 'webhook-url': 'https://booty.example.com/webhooks' },
      { GITHUB_API_URL: world.github.url },
    );
    await actAsBrowser(run.out);
    expect(await run.exit).toBe(0);
    const app = parseEnv(fs.readFileSync(envFile, 'utf8'));
    const publicKey = createPublicKey(app.PRIVATE_KEY!).export({ type: 'spki', format: 'pem' }) as string;
    world.github.installApp({ publicKey, account: OWNER });

    const booty = await world.startInProcess({
      GITHUB_TOKEN: '', // unset: the job runs as the App alone
      GITHUB_APP_ID: app.APP_ID!,
      GITHUB_PRIVATE_KEY: app.PRIVATE_KEY!,
    });
    await world.label();
    // A promoted job waits with its PR (it is not final): that is the end of a whole job's first run.
    await until(
      'the job to promote its PR',
      async () => (await booty.store.listJobs()).some((j) => j.final || j.state === 'promoted'),
      60_000,
    );
    const [job] = await booty.store.listJobs();
    expect(job?.state).toBe('promoted');
    expect(world.pulls().map((p) => p.author)).toEqual(['booty-manifest[bot]']);

    // What the job's requests needed, each permission at the highest level asked, and metadata,
    // which GitHub gives every App: that is app.yml's list, no more and no less.
    const asApp = world.github.requests().filter((r) => r.login === 'booty-manifest[bot]');
    expect(asApp.filter((r) => r.status === 403)).toEqual([]);
    const needed: Record<string, string> = { metadata: 'read' };
    // A job with its PR also re-runs red CI once (rerunCi), which a job whose CI is green never does.
    const rerun = operationNeeds['actions/re-run-workflow-failed-jobs']!;
    for (const need of [...asApp.flatMap((r) => r.needs), describeNeed(rerun)]) {
      const [permission, level] = need.split(':') as [string, string];
      if (needed[permission] !== 'write') needed[permission] = level;
    }
    expect(needed).toEqual(appYml.default_permissions);
    expect(`${OWNER}/${REPO}`).toBe(job?.repo);
  }, 90_000);
});

const BRANCH = 'booty/issue-1-add-a-thing';

/** An example payload as it would reach booty about its own issue, PR or branch. */
function asBootys(payload: any): any {
  if (payload.label) payload.label.name = 'booty';
  if (payload.pull_request?.head) payload.pull_request.head.ref = BRANCH;
  for (const run of [payload.check_suite, payload.check_run, payload.workflow_run]) {
    if (run && 'head_branch' in run) run.head_branch = BRANCH;
  }
  if (Array.isArray(payload.branches)) payload.branches = [{ name: BRANCH }];
  if (payload.comment) payload.comment.body = '@booty retry';
  if (payload.review) payload.review.body = '@booty please handle this';
  return payload;
}
