import type { Logger } from '../log.js';
import type { GitHubClients } from './clients.js';
import { getIssue, listIssueComments } from './issues.js';
import { openDraftPr, promotePr } from './pull-requests.js';

// The GitHub side of the job's effects, bound to one set of clients. `openDraftPr` takes the head
// the workspace pushed, so the integrator's `openPr` effect is push-then-open.

export function createGitHubEffects({
  clients,
  log,
  scrub,
}: {
  clients: GitHubClients;
  log?: Logger;
  scrub?: (text: string) => string;
}) {
  const deps = { clients, log, scrub };
  return {
    openDraftPr: openDraftPr(deps),
    promotePr: promotePr(deps),
    listIssueComments: listIssueComments(clients),
    getIssue: getIssue(clients),
  };
}

export type GitHubEffects = ReturnType<typeof createGitHubEffects>;
