import type { Env } from '../../env.js';
import type { Logger } from '../../log.js';
import type { SandboxChoice } from '../../sandbox/sandbox-mode.js';
import type { Forge } from '../forge.js';
import { createGitLabClients, type GitLabClients } from './clients.js';
import { gitlabConversation } from './gitlab-conversation.js';
import { gitlabWebhooks } from './gitlab-webhooks.js';
import { escalate, getIssue, listIssueComments, postPlan } from './issues.js';
import { demoteMr, openDraftMr, promoteMr } from './merge-requests.js';
import { readCi, rerunCi } from './pipelines.js';
import { gitlabProgress } from './progress-note.js';
import { answerQuestions } from './question-replies.js';
import { answerRound } from './round-replies.js';
import { tokenCheck } from './token-check.js';

// GitLab behind the forge port: REST v4 on a project or group access token (clients.ts), webhooks
// carrying their secret token, merge requests for pull requests, notes for comments, pipelines for
// CI. GITLAB_URL points it at gitlab.com, a self-managed instance or the local simulator alike.
// GitLab keeps no delivery log booty could read on a token's terms: there is no catch-up.

export interface GitLabForge extends Forge {
  readonly clients: GitLabClients;
  readonly secrets: string[];
}

export function createGitLabForge(options: {
  env: Env;
  log?: Logger;
  scrub?: (text: string) => string;
  sandbox?: SandboxChoice;
}): GitLabForge {
  const { env } = options;
  const clients = createGitLabClients({ url: env.GITLAB_URL, token: env.GITLAB_TOKEN ?? '' });
  return gitlabForge({
    clients,
    log: options.log,
    scrub: options.scrub,
    sandbox: options.sandbox,
    handle: env.BOOTY_HANDLE,
  });
}

export function gitlabForge(options: {
  clients: GitLabClients;
  log?: Logger;
  scrub?: (text: string) => string;
  sandbox?: SandboxChoice;
  /** How people call on booty in notes: BOOTY_HANDLE, else `booty`. */
  handle?: string;
}): GitLabForge {
  const { clients } = options;
  const handle = options.handle ?? 'booty';
  const deps = { ...options };
  return {
    name: 'gitlab',
    handle: () => handle,
    identify: async () => handle,
    clients,
    secrets: [],
    webhooks: gitlabWebhooks,
    conversation: gitlabConversation(clients),
    effects: {
      openDraftPr: openDraftMr(deps),
      promotePr: promoteMr(deps),
      readCi: readCi(deps),
      rerunCi: rerunCi(deps),
      demotePr: demoteMr(deps),
      answerRound: answerRound(deps),
      answerQuestions: answerQuestions(deps),
      // GitLab's suggestions are applied in its own interface: booty finds none to apply.
      suggestions: async () => [],
      listIssueComments: listIssueComments(clients),
      getIssue: getIssue(clients),
      postPlan: postPlan(clients),
      escalate: escalate(clients),
    },
    progress: gitlabProgress(clients),
    remote: {
      url: (repo) => clients.gitRemoteUrl(repo),
      credentials: async () => clients.gitCredentials(),
    },
    checkAccess: tokenCheck(clients),
    history: null,
    stop: () => clients.stop(),
  };
}
