import fs from 'node:fs';
import path from 'node:path';
import { startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import { type GitLabSimulator, startGitLabSimulator } from '../../sim/gitlab/gitlab-simulator.js';
import { demoResponder, examplesDir, type Scenario, sampleIssue } from '../../src/demo/demo-script.js';
import { tempDir } from '../support/job-harness.js';
import type { HookedForge } from './fixtures/crashing-serve.js';

// e2e-world.ts with GitLab in GitHub's place: the local GitLab holding the sample repository as a
// project and its issue, the scripted Anthropic, and the environment `booty serve` would read.

export const PROJECT = 'demo/tiny-durations';
export const GL_TOKEN = `glpat-${'e2e'.repeat(8)}`;
export const GL_SECRET = 'e2e-gitlab-secret-token';
export const GL_BOT = 'booty-bot';

/** `settings`: booty.yml lines in place of the sample's `maxAttempts` line, as sampleRepoWith's. */
export async function gitlabWorld(scenario: Scenario = 'pass', settings?: string) {
  const dir = tempDir('booty-gitlab-e2e-');
  const gitlab = await startGitLabSimulator({
    dir: path.join(dir, 'gitlab'),
    tokens: [{ token: GL_TOKEN, username: GL_BOT }],
  });
  // The sample repository with its settings where GitLab keeps them: .gitlab/booty.yml.
  const repo = path.join(dir, 'sample-repo');
  fs.cpSync(path.join(examplesDir, 'sample-repo'), repo, { recursive: true });
  fs.mkdirSync(path.join(repo, '.gitlab'));
  const yml = path.join(repo, '.gitlab', 'booty.yml');
  fs.renameSync(path.join(repo, '.github', 'booty.yml'), yml);
  if (settings) fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace(/^maxAttempts: \d+$/m, settings));
  await gitlab.createProject(PROJECT, { fromDir: repo });
  const issue = gitlab.createIssue(PROJECT, { ...sampleIssue(), author: 'octocat' }).iid;
  const anthropic = await startAnthropicSimulator({ responder: demoResponder(scenario) });
  const env = (overrides: Record<string, string> = {}): Record<string, string> => ({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BOOTY_DB: path.join(dir, 'booty.db'),
    BOOTY_WORKDIR: path.join(dir, 'work'),
    BOOTY_FORGE: 'gitlab',
    GITLAB_URL: gitlab.url,
    GITLAB_TOKEN: GL_TOKEN,
    GITLAB_WEBHOOK_SECRET: GL_SECRET,
    ANTHROPIC_API_KEY: 'e2e-key',
    ANTHROPIC_BASE_URL: anthropic.url,
    BOOTY_RETRY_BASE_MS: '20',
    BOOTY_MAX_RETRIES: '2',
    ...overrides,
  });
  /** The simulator as the crash runs take a forge: its hook's secret is GitLab's token. */
  const hooked: HookedForge = {
    setWebhook: (t) => gitlab.setWebhook({ url: t.url, token: t.secret }),
    settled: () => gitlab.settled(),
  };
  return {
    dir,
    gitlab,
    hooked,
    anthropic,
    issue,
    env,
    label: () => gitlab.labelIssue(PROJECT, issue, 'booty'),
    mergeRequests: () => gitlab.mergeRequests(PROJECT),
    notes: () => gitlab.notes(PROJECT, issue),
    modelCalls: (tool: 'submit_analysis' | 'submit_changes') =>
      anthropic.messages().filter((r) => r.toolName === tool && r.status === 200).length,
    async close() {
      await anthropic.close();
      await gitlab.close();
    },
  };
}

export type GitLabWorld = Awaited<ReturnType<typeof gitlabWorld>>;
export type { GitLabSimulator };
