import fs from 'node:fs';
import path from 'node:path';
import { type Responder, startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import { type GitHubSimulator, startGitHubSimulator } from '../../sim/github/github-simulator.js';
import { demoResponder, examplesDir, type Scenario, sampleIssue } from '../../src/demo/demo-script.js';
import { loadEnv } from '../../src/env.js';
import { createLogger } from '../../src/log.js';
import type { Booty, BootyConfig } from '../../src/main/compose.js';
import { startBooty } from '../../src/main/serve.js';
import { tempDir } from '../support/job-harness.js';

// The world an end-to-end test runs in: a local GitHub holding the sample repository and its
// issue, a local Anthropic answering the scenario's turns, and the environment booty would read.

export const OWNER = 'demo';
export const REPO = 'tiny-durations';
export const TOKEN = `ghp_${'e2e'.repeat(12)}`;
export const SECRET = 'e2e-webhook-secret';

export interface WorldOptions {
  /** The repository's files (default: the demo's sample repository). */
  repoDir?: string;
  /** The issue (default: the demo's sample issue). */
  issue?: { title: string; body: string };
  /** The model's turns (default: the scenario's scripted ones). */
  responder?: Responder;
}

/** The sample repository with these booty.yml lines in place of its maxAttempts. */
export function sampleRepoWith(yml: string): string {
  const dir = path.join(tempDir('booty-refine-repo-'), 'repo');
  fs.cpSync(path.join(examplesDir, 'sample-repo'), dir, { recursive: true });
  const file = path.join(dir, '.github', 'booty.yml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^maxAttempts: \d+$/m, yml));
  return dir;
}

/**
 * A parked world's files copied (GitHub's, booty's database and workdir): not the spare clones, a
 * cache whose origin is the first GitHub's URL (its port is gone). The copy's GitHub serves them.
 */
async function copiedFiles(from: string) {
  const dir = tempDir('booty-world-copy-');
  const spares = path.join(from, 'work', 'spares');
  fs.cpSync(from, dir, { recursive: true, filter: (src) => src !== spares });
  const github = await startGitHubSimulator({
    dir: path.join(dir, 'github'),
    tokens: [{ token: TOKEN, login: 'booty-bot' }],
  });
  return { dir, github };
}

/** A parked world's files copied, with a GitHub and a model of their own, for `booty serve`. */
export async function copyOfWorld(
  parked: { dir: string; env: Record<string, string> },
  responder: Responder,
) {
  const { dir, github } = await copiedFiles(parked.dir);
  const anthropic = await startAnthropicSimulator({ responder });
  const env = {
    ...parked.env,
    BOOTY_DB: path.join(dir, 'booty.db'),
    BOOTY_WORKDIR: path.join(dir, 'work'),
    GITHUB_API_URL: github.url,
    ANTHROPIC_BASE_URL: anthropic.url,
  };
  return {
    dir,
    github,
    anthropic,
    env,
    async close() {
      await anthropic.close();
      await github.close();
    },
  };
}

export async function e2eWorld(scenario: Scenario = 'pass', options: WorldOptions = {}) {
  const dir = tempDir('booty-e2e-');
  const github = await startGitHubSimulator({
    dir: path.join(dir, 'github'),
    tokens: [{ token: TOKEN, login: 'booty-bot' }],
  });
  await github.createRepo(OWNER, REPO, { fromDir: options.repoDir ?? path.join(examplesDir, 'sample-repo') });
  const issue = (github.createIssue(OWNER, REPO, options.issue ?? sampleIssue()) as { number: number })
    .number;
  return worldOver(dir, github, issue, options.responder ?? demoResponder(scenario));
}

/** The world a closed one left, copied: its job, PR and issue as they stood, a model of its own. */
export async function e2eWorldCopiedFrom(from: { dir: string; issue: number }, responder: Responder) {
  const { dir, github } = await copiedFiles(from.dir);
  return worldOver(dir, github, from.issue, responder);
}

async function worldOver(dir: string, github: GitHubSimulator, issue: number, responder: Responder) {
  const anthropic = await startAnthropicSimulator({ responder });

  /** The environment `booty serve` would get; short retry waits so failures end quickly. */
  const env = (overrides: Record<string, string> = {}): Record<string, string> => ({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    BOOTY_DB: path.join(dir, 'booty.db'),
    BOOTY_WORKDIR: path.join(dir, 'work'),
    GITHUB_API_URL: github.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_WEBHOOK_SECRET: SECRET,
    ANTHROPIC_API_KEY: 'e2e-key',
    ANTHROPIC_BASE_URL: anthropic.url,
    BOOTY_RETRY_BASE_MS: '20',
    BOOTY_MAX_RETRIES: '2',
    // A stop hands the jobs back at once unless a test drains them (test/e2e/drain.test.ts).
    BOOTY_DRAIN_MS: '0',
    ...overrides,
  });

  const started: Booty[] = [];
  /** booty in this process, with GitHub's webhook pointed at it. */
  /** `config`: the clock and the like, as a test composes them. */
  async function startInProcess(
    overrides: Record<string, string> = {},
    config: Pick<BootyConfig, 'clock' | 'holdRecheckMs'> = {},
  ) {
    const e = loadEnv(env(overrides));
    const booty = await startBooty({
      env: e,
      log: createLogger({ level: e.LOG_LEVEL }),
      ...config,
    });
    started.push(booty);
    github.setWebhook({ url: `${booty.server.url}/webhooks`, secret: SECRET });
    return booty;
  }

  return {
    dir,
    github,
    anthropic,
    issue,
    env,
    startInProcess,
    pulls: () => github.pulls(OWNER, REPO),
    comments: () => github.comments(OWNER, REPO, issue),
    label: () => github.labelIssue(OWNER, REPO, issue, 'booty'),
    unlabel: () => github.unlabelIssue(OWNER, REPO, issue, 'booty'),
    /** Model calls by the tool they answered: analysis or changes. */
    modelCalls: (tool: 'submit_analysis' | 'submit_changes') =>
      anthropic.messages().filter((r) => r.toolName === tool && r.status === 200).length,
    async close() {
      for (const b of started) await b.close();
      await anthropic.close();
      await github.close();
    },
  };
}
