import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { composeBooty } from '../../src/main/compose.js';
import { tempDir } from '../support/job-harness.js';

// The parts a job needs and an idle serve does not, as vitest's module mocks see them imported.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@octokit/rest', async (original) => {
  loaded.add('octokit');
  return original();
});
vi.mock('../../src/workspace/workspace.js', async (original) => {
  loaded.add('workspace');
  return original();
});
vi.mock('../../src/sandbox/test-effects.js', async (original) => {
  loaded.add('test runners');
  return original();
});
vi.mock('../../src/claude/claude-effects.js', async (original) => {
  loaded.add('Claude');
  return original();
});
vi.mock('../../src/forges/github/github-effects.js', async (original) => {
  loaded.add('GitHub effects');
  return original();
});
vi.mock('../../src/forges/gitlab/gitlab-forge.js', async (original) => {
  loaded.add('GitLab');
  return original();
});

describe('the composition root', () => {
  it('composes and closes a booty with its real effects without loading what only a job needs', async () => {
    const dir = tempDir('booty-compose-');
    const env = loadEnv({
      BOOTY_DB: path.join(dir, 'booty.db'),
      BOOTY_WORKDIR: path.join(dir, 'work'),
      GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnopqrstuvwxyz',
      ANTHROPIC_API_KEY: 'test-key',
    });
    const booty = await composeBooty({ env, log: pino({ level: 'silent' }), server: true });
    expect(booty.runtime).not.toBeNull();
    expect(await booty.supervisor.boot()).toEqual([]);
    await booty.close();
    expect([...loaded]).toEqual([]);
  });
});
