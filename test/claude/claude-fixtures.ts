import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type AnthropicSimulatorOptions,
  startAnthropicSimulator,
} from '../../sim/anthropic/anthropic-simulator.js';
import { type ClaudeEffectsOptions, createClaudeEffects } from '../../src/claude/claude-effects.js';
import { repoReaderFor } from '../../src/claude/repo-reader.js';
import type { Analysis, TestRun } from '../../src/events/effect-results.js';
import type { AttemptRecord, JobContext } from '../../src/machines/job-context.js';
import { sampleJobView } from '../support/job-harness.js';
import { testRun } from '../support/scripted-effects.js';

// A small real git repository, a job over it, and Claude effects talking to the simulator over HTTP.

export const MODEL = 'claude-sonnet-4-6';
export const API_KEY = 'sk-ant-test-0123456789';

const calculator = `// A tiny calculator used by the widgets app.
${Array.from({ length: 60 }, (_, i) => `export function op${i}(a, b) {\n  return a * ${i} + b; // operation ${i}\n}`).join('\n')}
`;

export function makeRepo(extra: Record<string, string> = {}): { dir: string; baseSha: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booty-claude-repo-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      { name: 'widgets', type: 'module', scripts: { test: 'node --test' } },
      null,
      2,
    ),
    'README.md': '# widgets\n\nA calculator library.\n',
    'src/calculator.js': calculator,
    'test/calculator.test.js': "import { test } from 'node:test';\ntest('op1 adds', () => {});\n",
    'docs/guide.md': '# Guide\n\nNothing to see.\n',
    ...extra,
  };
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'base');
  return { dir, baseSha: git('rev-parse', 'HEAD') };
}

export const analysis: Analysis = {
  summary: 'Add a subtract function to the calculator.',
  changeKind: 'feat',
  filesToRead: ['README.md'],
  filesToChange: ['src/calculator.js'],
  testsToAdd: ['test/calculator.test.js'],
  acceptanceCriteria: ['subtract(3, 1) returns 2'],
  risks: ['none'],
};

export function job(
  overrides: Partial<JobContext> & { body?: string; maxTokens?: number | null; baseSha?: string } = {},
): JobContext {
  const { body, maxTokens, baseSha, comments, ...rest } = overrides;
  const view = sampleJobView({
    issue: {
      number: 5,
      title: 'Add subtract()',
      body: body ?? 'Please add subtract(a, b).',
      url: 'https://x/5',
    },
    settings: { maxTokens: maxTokens ?? null },
  });
  return {
    ...view,
    issue: { ...view.issue, comments: comments ?? [] },
    comments: comments ?? [],
    workspace: baseSha ? { baseSha, defaultBranch: 'main' } : null,
    ...rest,
  };
}

/** A failed run read from text only: no failure messages, so the prompt shows the output's tail. */
export const failedRun = (n: number, output: string): TestRun => {
  const run = testRun(false, [`subtract works (attempt ${n})`]);
  return {
    ...run,
    at: 1,
    durationMs: 10,
    outputTail: output,
    source: 'text',
    cases: run.cases.map((c) => ({ ...c, message: null })),
    sandbox: 'none',
  };
};

/** An applied attempt whose tests failed with `output`; its test files count as added. */
export const attempt = (
  n: number,
  explanation: string,
  files: string[],
  output = `attempt ${n} failed`,
): AttemptRecord => ({
  n,
  explanation,
  proposed: files.map((path) => ({ path, content: `// attempt ${n}\n` })),
  files,
  rejected: [],
  addedTests: files.filter((f) => f.startsWith('test/')),
  applied: true,
  test: failedRun(n, output),
});

export async function claudeOverSimulator(
  sim: AnthropicSimulatorOptions = {},
  options: Partial<ClaudeEffectsOptions> & { repoDir?: string; ref?: string } = {},
) {
  const simulator = await startAnthropicSimulator({ apiKey: API_KEY, minCacheTokens: 1024, ...sim });
  const { repoDir, ref, ...rest } = options;
  const effects = createClaudeEffects({
    apiKey: API_KEY,
    baseURL: simulator.url,
    model: MODEL,
    maxInputTokens: 20_000,
    maxRetries: 2,
    timeoutMs: 10_000,
    repo: async (j) => repoReaderFor(repoDir ?? '.', { ref: ref ?? j.workspace?.baseSha }),
    ...rest,
  });
  return { simulator, effects };
}

export const signal = () => new AbortController().signal;
