import type { FailureClass, QualityRun, Rejection, TestRun } from '../events/effect-results.js';
import { classifyText, failureBlocks, unjudgedQuality } from './failure-class.js';

// What each class of failure asks for: a hint for the model's next attempt, and for those that
// no attempt can fix (policy, environment, unreadable), what a human must change instead.

/** One or two sentences per class, put at the head of the refine request. */
export const CLASS_GUIDANCE: Record<FailureClass, string> = {
  'missing-module':
    'A module could not be found. Check the import path and file name against the repository, create the module if it should exist, and do not add a dependency the project does not already have.',
  import:
    'A module loaded but a name imported from it does not exist. Match the import to what the module really exports (its name, default or named export), or export it.',
  assertion:
    'The code runs but gives the wrong result. Compare the expected and the actual value and fix the logic; change a test only if the test itself is wrong.',
  'type-or-value':
    'The code fails at run time on a wrong type, a missing attribute or an undefined name. Find the call in the trace and fix how the value is made or used.',
  'syntax-or-compile':
    'The code does not parse or compile. Fix the reported line first; the other failures often go away with it.',
  timeout:
    'The tests did not finish in time. Look for an endless loop, a wait that never ends or a server left open, and make the code and the tests end promptly.',
  policy: 'A change was refused by booty’s rules.',
  environment: 'The tests need something the sandbox does not have.',
  unreadable: 'booty could not read the test results.',
  'invalid-model-output':
    'The last answer had nothing booty could apply. Change existing files with edits whose search text matches the current file exactly once, give new files whole, and stay within the rules above.',
  unknown: 'Read the failure below carefully and find its first cause before changing anything.',
};

/** The first line of the run's failures that shows the class, quoted for a human. */
function evidence(run: TestRun | null, cls: FailureClass): string | null {
  if (!run) return null;
  const texts = [...failureBlocks(run).map((b) => b.text), run.outputTail];
  for (const text of texts) {
    const line = text.split('\n').find((l) => classifyText(l) === cls);
    if (line) return line.trim().slice(0, 200);
  }
  return null;
}

const quoted = (line: string | null) => (line ? ` (\`${line.replaceAll('`', "'")}\`)` : '');
const again = 'then ask booty again: `@booty retry` on its pull request, or label the issue again.';
const ticked = (text: string) => `\`${text.replaceAll('`', "'")}\``;

/** How a repository lets booty read its runner, for a run (or a baseline) booty could not read. */
export const READABLE_FIX =
  "Let booty read the runner: have the tests write a JUnit XML or TAP report and point `test.report` in `.github/booty.yml` at it, or add the runner's TAP or JUnit reporter to `test.command` (for example `ava --tap`, `tape` prints TAP already); or, to accept the exit status alone, set `gate: exit-code` in booty.yml, which the pull request then shows as weak evidence";

/** A run that exited 0 and named no failure, which booty could not read enough of to call a pass. */
function unreadableMessage(attempt: { n: number; test: TestRun | null }): string {
  const test = attempt.test;
  const command = ticked(test?.command ?? 'the test command');
  const stop = `booty stopped after attempt ${attempt.n} rather than ask the model to fix a change that may well work.`;
  const unseen = test?.reasons.find((r) => r.code === 'changed-test-unseen')?.tests ?? [];
  if (test && test.cases.length > 0 && unseen.length > 0) {
    const names =
      unseen.slice(0, 5).map(ticked).join(', ') + (unseen.length > 5 ? ` and ${unseen.length - 5} more` : '');
    return `The tests exited 0 and named no failing test, but booty did not see the tests this change added or modified pass: ${names}. ${stop} Check that ${command} runs them and that its report names them as the source declares them (file, class or describe block, title). ${READABLE_FIX}; ${again}`;
  }
  if (test && test.cases.length > 0) {
    return `The tests exited 0, but booty saw no test pass: every test it read from ${command} was skipped. ${stop} Check which tests ${command} runs; ${again}`;
  }
  return `The tests exited 0, but booty could not read which tests ran: ${command} printed no result booty knows how to read, so it cannot tell whether the change works. ${stop} ${READABLE_FIX}; ${again}`;
}
/** What a human must change after a failure no attempt can fix, for the PR body and the comment. */
export function failFastMessage(
  cls: 'policy' | 'environment' | 'unreadable',
  attempt: { n: number; rejected: Rejection[]; test: TestRun | null },
): string {
  if (cls === 'unreadable') return unreadableMessage(attempt);
  const line = evidence(attempt.test, cls);
  const stop = `booty stopped after attempt ${attempt.n}: another attempt cannot fix this.`;
  if (cls === 'policy' && attempt.test === null) {
    const paths = attempt.rejected.map((r) => `\`${r.path}\``).join(', ');
    return `Every change the model made is on a protected path (${paths}), so nothing could be applied; ${stop} A human must make that change, or, if booty.yml's \`protectedPaths\` names it, remove it there (booty's own protected paths, such as workflows and booty's config, stay protected); ${again}`;
  }
  if (cls === 'policy') {
    return `The tests did something booty's sandbox forbids${quoted(line)}: they may write only in the workspace and in /tmp; ${stop} Change the tests to write there, or have the operator widen the sandbox (\`BOOTY_SANDBOX_RO_PATHS\` binds more directories, read-only); ${again}`;
  }
  const unjudged = unjudgedQuality(attempt.test);
  if (unjudged.length > 0) {
    const commands = unjudged.map((q) => `\`${q.command}\` ${unjudgedWhy(q)}`).join('; ');
    return `The tests pass, but booty cannot judge the quality commands: ${commands}. ${stop} Make the command pass on the base branch, have it print its findings as \`path:line: message\`, install what it needs on booty's host, or take it out of booty.yml's \`quality.commands\`; ${again}`;
  }
  const exit = attempt.test?.exitCode;
  if (line ? /not found/.test(line) : exit === 127 || exit === 126) {
    return `The tests need a program that is not available where booty runs them${quoted(line)}; ${stop} Install it on booty's host, or have the operator bind its directory into the sandbox with \`BOOTY_SANDBOX_RO_PATHS\`, or change \`test.command\` in booty.yml; ${again}`;
  }
  return `The tests need network access, which booty's sandbox does not give them${quoted(line)}; ${stop} Make them run offline (a fake in place of the service), or fetch what they need in booty.yml's \`install.command\`, which runs with network; an operator can also run tests without the sandbox (\`BOOTY_SANDBOX=off\`), at the cost of its isolation; ${again}`;
}

/** Why booty could not judge a quality command, in a human's words. */
function unjudgedWhy(q: QualityRun): string {
  if (q.exitCode === 126 || q.exitCode === 127)
    return `could not be started (exit ${q.exitCode}: the program is not available where booty runs it)`;
  return q.reason ?? 'could not be judged';
}
