import type { Logger } from '../../log.js';
import type { SandboxChoice } from '../../sandbox/sandbox-mode.js';
import { readCi } from './ci-read.js';
import { rerunCi } from './ci-rerun.js';
import type { GitHubClients } from './clients.js';
import { getIssue, listIssueComments } from './issues.js';
import { escalate, postPlan } from './loop-checkpoints.js';
import { demotePr } from './pr-demotion.js';
import { openDraftPr, promotePr } from './pull-requests.js';
import { answerQuestions, answerRound } from './round-replies.js';
import { suggestionComments } from './suggestion-comments.js';

// The GitHub side of the job's effects, bound to one set of clients. `openDraftPr` takes the head
// the workspace pushed, so the integrator's `openPr` effect is push-then-open; `answerRound` takes
// what the round pushed, so its effect is push-then-answer.

export function createGitHubEffects({
  clients,
  log,
  scrub,
  sandbox,
}: {
  clients: GitHubClients;
  log?: Logger;
  scrub?: (text: string) => string;
  /** The sandbox mode and who chose it, for the notices that say the tests ran without it. */
  sandbox?: SandboxChoice;
}) {
  const deps = { clients, log, scrub, sandbox };
  return {
    openDraftPr: openDraftPr(deps),
    promotePr: promotePr(deps),
    readCi: readCi(deps),
    rerunCi: rerunCi(deps),
    demotePr: demotePr(deps),
    answerRound: answerRound(deps),
    answerQuestions: answerQuestions(deps),
    suggestions: suggestionComments(deps),
    listIssueComments: listIssueComments(clients),
    getIssue: getIssue(clients),
    postPlan: postPlan(deps),
    escalate: escalate(deps),
  };
}

export type GitHubEffects = ReturnType<typeof createGitHubEffects>;
