import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import { effectInput, emptyConversation, type Round } from '../../src/machines/job-context.js';
import { analysis, claudeOverSimulator, job, makeRepo, signal } from './claude-fixtures.js';

// A follow-up round's request carries the pull request's whole change: booty's first commit and a
// human's commit on the branch, diffed from where the PR branched off to the round's base.

let sim: AnthropicSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function commit(dir: string, files: Record<string, string>, message: string): string {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', message);
  return git('rev-parse', 'HEAD');
}

const round = (base: string): Round => ({
  n: 1,
  triggers: [
    {
      kind: 'feedback',
      place: 'review',
      author: 'reviewer',
      body: 'Please also cover negative numbers.',
      commentId: 7,
      comments: [],
      mention: false,
    },
  ],
  firstAttempt: 2,
  base,
  result: null,
  commit: null,
  note: null,
});

const answer = {
  answer: {
    explanation: 'Covers negative numbers.',
    changes: [{ path: 'test/subtract.test.js', content: '// negative numbers\n' }],
    deletePaths: [],
  },
};

/** Generates for a job in a round on the branch head, or for the first generation at the base. */
async function generate(inRound: boolean) {
  const { dir, baseSha: firstBase } = makeRepo();
  commit(dir, { 'src/subtract.js': 'export const subtract = (a, b) => a - b;\n' }, 'booty');
  const human = commit(dir, { 'docs/subtract.md': 'Subtracts b from a.\n' }, 'a human');
  const started = await claudeOverSimulator({ script: [answer] }, { repoDir: dir });
  sim = started.simulator;
  const at = inRound ? human : firstBase;
  const j = job({
    baseSha: at,
    analysis,
    attempt: inRound ? 2 : 1,
    conversation: { ...emptyConversation, firstBase, rounds: inRound ? [round(at)] : [] },
  });
  await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });
  return { raw: sim.messages()[0]!.raw, firstBase };
}

describe('a follow-up round sees the whole pull request', () => {
  it('the request carries the diff from where the PR branched off to the round base, humans commits included', async () => {
    const { raw, firstBase } = await generate(true);
    const text = JSON.parse(raw)
      .messages[0].content.map((c: { text?: string }) => c.text ?? '')
      .join('\n');
    expect(text).toContain(
      `The pull request's whole diff so far, against ${firstBase.slice(0, 7)} where it branched off`,
    );
    const diff = text.slice(text.indexOf('<pr_diff>'), text.indexOf('</pr_diff>'));
    expect(diff).toContain('+++ b/src/subtract.js\n@@ -0,0 +1 @@\n+export const subtract = (a, b) => a - b;');
    expect(diff).toContain('+++ b/docs/subtract.md\n@@ -0,0 +1 @@\n+Subtracts b from a.');
    expect(text).toContain('Please also cover negative numbers.');
  });

  it('the first generation, before any PR, has no PR diff', async () => {
    const { raw } = await generate(false);
    expect(raw).not.toContain('<pr_diff>');
    expect(raw).not.toContain('a follow-up round was asked for');
  });
});
