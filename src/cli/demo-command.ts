import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Scenario, scenarios } from '../demo/demo-script.js';
import { runDemo } from '../demo/run-demo.js';
import { BootyError } from '../errors.js';
import { plural } from '../text.js';
import type { Command } from './command.js';
import { shellWord } from './invocation.js';

export const demoCommand: Command = {
  name: 'demo',
  usage: [
    `Usage: booty demo [--scenario ${scenarios.join('|')}] [--forge github|gitlab] [--dir DIR] [--json]`,
    '',
    'Runs the whole pipeline on this machine: a local GitHub simulator (state in DIR), the sample',
    'repository in examples/ with a real issue, a scripted model, real git and real test runs.',
    'It labels the issue, prints each state as the job moves, and a summary at the end.',
    '',
    '  --scenario S   pass (promoted after 1 attempt, the default), refine (a failing first attempt,',
    '                 then a fix), exhausted (never passes: a draft PR that says why, waiting in prOpened),',
    '                 review (a reviewer asks for one more case: a round answers with a commit on top',
    '                 and a reply in the thread), ci-red (CI fails on the PR; booty re-runs it once,',
    "                 red again, a round fixes it, and green CI makes the PR ready), mention (a writer's",
    '                 @booty on the unlabeled issue does what the label does), question (a writer asks',
    '                 @booty a question: one answer, no commit) or person-pr (a writer opens a PR and',
    '                 asks @booty for one more case: a commit on top of their branch)',
    "  --forge F      github (the default) or gitlab: the job runs against that forge's local simulator",
    '  --dir DIR      where the demo keeps its state (default: a new temporary directory). Run the same',
    '                 command again on the same DIR to resume an interrupted job or see a finished one.',
    '  --json         print one JSON object: { jobId, finalState, attempts, pullRequest, comments, rounds,',
    '                 replies, ci, db }',
    '',
    'Exits 0 when the scenario reaches the end it promises.',
  ].join('\n'),
  options: {
    scenario: { type: 'string' },
    forge: { type: 'string' },
    dir: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: [],
  async run({ values }, io) {
    const scenario = (values.scenario ?? 'pass') as Scenario;
    if (!scenarios.includes(scenario)) {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'demo',
        reason: `--scenario must be one of ${scenarios.join(', ')}, not ${JSON.stringify(values.scenario)}`,
      });
    }
    const forge = (values.forge ?? 'github') as 'github' | 'gitlab';
    if (forge !== 'github' && forge !== 'gitlab') {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'demo',
        reason: `--forge must be github or gitlab, not ${JSON.stringify(values.forge)}`,
      });
    }
    // The mention scenarios speak GitHub's comments: GitLab's notes have no demo of their own yet.
    // A person's own merge request is not a job booty starts on GitLab yet (gitlab-conversation.ts).
    if (forge === 'gitlab' && scenario === 'person-pr') {
      throw new BootyError('BOOTY_E_USAGE', {
        command: 'demo',
        reason: `--scenario ${scenario} runs on GitHub only; drop --forge gitlab, or pick ${scenarios.filter((s) => s !== 'person-pr').join(', ')}`,
      });
    }
    const dir = (values.dir as string | undefined) ?? fs.mkdtempSync(path.join(os.tmpdir(), 'booty-demo-'));
    const json = values.json === true;
    const started = Date.now();
    const say = (line: string) => (json ? undefined : io.out(line));
    say(`booty demo: scenario ${scenario}${forge === 'gitlab' ? ' on GitLab' : ''}, in ${path.resolve(dir)}`);

    const result = await runDemo({
      scenario,
      forge,
      dir,
      progress: {
        note: (text) => say(`  ${text}`),
        state: ({ state, attempt, maxAttempts, at }) => {
          const when = `${((at - started) / 1000).toFixed(1)}s`.padStart(6);
          const detail =
            state === 'generating' || state === 'refining' ? `  attempt ${attempt}/${maxAttempts}` : '';
          say(`  ${when}  ${state}${detail}`);
        },
      },
    });

    if (json) {
      io.out(
        JSON.stringify({
          jobId: result.jobId,
          scenario,
          finalState: result.finalState,
          attempts: result.attempts,
          pullRequest: result.pullRequest,
          comments: result.comments,
          rounds: result.rounds,
          replies: result.replies,
          ci: result.ci,
          db: result.db,
          ok: result.ok,
          sandbox: result.sandboxNotice,
        }),
      );
      return result.ok ? 0 : 1;
    }
    const pr = result.pullRequest;
    say('');
    say(
      // The bound on attempts holds per round, while the count runs over the job's whole life.
      `${result.ok ? '✓' : '✗'} job ${result.jobId}: ${result.finalState} after ${plural(result.attempts, 'attempt')}${result.rounds.length ? ` (at most ${result.maxAttempts} per round)` : ` of ${result.maxAttempts}`}`,
    );
    if (result.outcome) say(`  ${result.outcome}`);
    if (result.sandboxNotice) say(`  ⚠ ${result.sandboxNotice} Install bubblewrap to contain them.`);
    say(
      pr
        ? `  pull request #${pr.number} (${pr.draft ? 'draft' : 'ready for review'}): ${pr.url}`
        : '  no pull request',
    );
    for (const r of result.rounds) {
      const did = r.commit ? `pushed ${r.commit.slice(0, 7)} on top of the branch` : (r.result ?? 'running');
      say(`  round ${r.n} (${r.triggers.join(', ')}): ${did}`);
    }
    const replies = result.replies.length;
    if (replies)
      say(`  ${replies} ${replies === 1 ? 'reply' : 'replies'} in review threads, naming the commit`);
    if (result.ci) say(`  CI on the head: ${result.ci.state}, after ${plural(result.ci.reruns, 're-run')}`);
    say(`  the issue has ${plural(result.comments, 'comment')}: booty's progress comment, edited in place`);
    say(`  database: ${result.db}`);
    say(`  replay it: ${io.self} replay ${result.jobId} --db ${shellWord(result.db)}`);
    if (!result.ok)
      say(
        `  the "${scenario}" scenario did not reach its expected end; see ${path.join(path.resolve(dir), 'booty.log')}`,
      );
    return result.ok ? 0 : 1;
  },
};
