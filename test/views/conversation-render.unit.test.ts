import { describe, expect, it } from 'vitest';
import { foldJob } from '../../src/machines/fold.js';
import { jobView } from '../../src/machines/job-context.js';
import { conversationSection } from '../../src/views/conversation-render.js';
import { happy, ok, outside } from '../machines/decider/decider.js';

// The progress comment as the PR's control panel, from a folded log.

const ciNotStarted = {
  sha: 'c'.repeat(40),
  state: 'pending' as const,
  total: 0,
  failing: [],
  rerunnable: [],
};

const view = (events: { type: string }[]) => {
  const snapshot = foldJob(events.map(({ type, ...data }) => ({ type, data })));
  return { ctx: jobView(snapshot.context), state: snapshot.value as never };
};

describe('the control panel in the progress comment', () => {
  it('says what the job waits for, CI, each round and what came of it, and the commands', () => {
    const { ctx, state } = view([
      ...happy.promoted(),
      outside.review(),
      ok.synced(2),
      ok.generated(2),
      ok.applied(2),
      ok.tests(true, 2),
      ok.answered(2, 'd'.repeat(40)),
    ]);
    expect(conversationSection(ctx, state)).toBe(
      [
        '**Now:** booty waits with its pull request for a review, a writer’s `@booty`, or CI.  \n**CI:** not read yet',
        `- Round 1, for a review by @reviewer: pushed \`ddddddd\` — adds add()`,
        '<details><summary>Commands</summary>\n\nFrom people with write access, on the issue or the pull request: `@booty <what to change>` starts a round, `@booty <question>?` gets an answer and no commit, `@booty retry` runs another, `@booty stop` stops the round under way, `@booty continue` resumes a job waiting at its token budget, `@booty cancel` ends the job.\n</details>',
      ].join('\n\n'),
    );
  });

  it('shows red CI and the round that fixes it', () => {
    const { ctx, state } = view([
      ...happy.waitingForCi(),
      outside.ciDone(),
      ok.ci('failed'),
      ok.rerun(),
      outside.ciDone(),
      ok.ci('failed'),
    ]);
    const text = conversationSection(ctx, state)!;
    expect(text).toContain('**CI:** failed on `bbbbbbb`: build');
    expect(text).toContain('- Round 1, for CI failed on `bbbbbbb` (build): under way');
  });

  it('names who holds the PR as draft, and CI that has not started on a new head', () => {
    const { ctx, state } = view([...happy.promoted(), outside.draft(true)]);
    const held = { ...ctx, conversation: { ...ctx.conversation, ci: { ...ciNotStarted } } };
    expect(conversationSection(held, state)!.split('\n\n')[0]).toBe(
      [
        '**Now:** booty waits with its draft for a review, a writer’s `@booty`, or CI.',
        '**CI:** not started yet on `ccccccc`',
        '**Draft:** @maintainer turned it back to draft; booty leaves it so until someone marks it ready.',
      ].join('  \n'),
    );
  });

  it('is absent before the PR opens', () => {
    const { ctx, state } = view(happy.testing());
    expect(conversationSection(ctx, state)).toBeNull();
  });
});
