import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import type { Caller } from './github-sim-auth.js';
import type { OperationId } from './github-sim-operations.js';
import type { SimApp, SimState } from './github-sim-state.js';

// What each request needs of a GitHub App installation, as GitHub's docs list it per endpoint
// ("Fine-grained access: Issues (write)"), and whether a caller has it. An App registered from a
// manifest gets only the permissions it asked for, so a job run as that App proves the manifest
// is enough; an App installed by a test without a manifest may do anything, as before.

export type Level = 'read' | 'write';
export interface Need {
  permission: string;
  level: Level;
}

const need = (permission: string, level: Level): Need => ({ permission, level });

/** Per REST operation; null for the App's own endpoints, which its JWT reaches without permissions. */
export const operationNeeds: Record<OperationId, Need | null> = {
  'apps/get-authenticated': null,
  'apps/get-repo-installation': null,
  'apps/create-installation-access-token': null,
  'apps/create-from-manifest': null,
  'apps/list-webhook-deliveries': null,
  'apps/redeliver-webhook-delivery': null,
  'repos/get': need('metadata', 'read'),
  'issues/get': need('issues', 'read'),
  'issues/list-comments': need('issues', 'read'),
  'issues/create-comment': need('issues', 'write'),
  'issues/update-comment': need('issues', 'write'),
  'reactions/create-for-issue': need('issues', 'write'),
  'pulls/list': need('pull_requests', 'read'),
  'pulls/create': need('pull_requests', 'write'),
  'pulls/get': need('pull_requests', 'read'),
  'pulls/update': need('pull_requests', 'write'),
  'issues/get-comment': need('issues', 'read'),
  'reactions/create-for-issue-comment': need('issues', 'write'),
  'reactions/list-for-issue-comment': need('issues', 'read'),
  'reactions/create-for-pull-request-review-comment': need('pull_requests', 'write'),
  'reactions/list-for-pull-request-review-comment': need('pull_requests', 'read'),
  'pulls/create-review': need('pull_requests', 'write'),
  'pulls/list-reviews': need('pull_requests', 'read'),
  'pulls/get-review': need('pull_requests', 'read'),
  'pulls/list-comments-for-review': need('pull_requests', 'read'),
  'pulls/list-review-comments': need('pull_requests', 'read'),
  'pulls/get-review-comment': need('pull_requests', 'read'),
  'pulls/create-review-comment': need('pull_requests', 'write'),
  'pulls/create-reply-for-review-comment': need('pull_requests', 'write'),
  'pulls/merge': need('contents', 'write'),
  'pulls/request-reviewers': need('pull_requests', 'write'),
  'pulls/list-requested-reviewers': need('pull_requests', 'read'),
  'issues/add-assignees': need('issues', 'write'),
  'repos/get-collaborator-permission-level': need('metadata', 'read'),
  'checks/create': need('checks', 'write'),
  'checks/get': need('checks', 'read'),
  'checks/list-for-ref': need('checks', 'read'),
  'checks/list-suites-for-ref': need('checks', 'read'),
  'repos/create-commit-status': need('statuses', 'write'),
  'repos/get-combined-status-for-ref': need('statuses', 'read'),
  'repos/list-commit-statuses-for-ref': need('statuses', 'read'),
  'actions/list-workflow-runs-for-repo': need('actions', 'read'),
  'actions/get-workflow-run': need('actions', 'read'),
  'actions/list-jobs-for-workflow-run': need('actions', 'read'),
  'actions/get-job-for-workflow-run': need('actions', 'read'),
  'actions/download-job-logs-for-workflow-run': need('actions', 'read'),
  'actions/re-run-workflow-failed-jobs': need('actions', 'write'),
};

/** The GraphQL root fields the simulator answers. */
const graphqlFieldNeeds: Record<string, Need> = {
  node: need('pull_requests', 'read'),
  markPullRequestReadyForReview: need('pull_requests', 'write'),
  convertPullRequestToDraft: need('pull_requests', 'write'),
};

/** A GraphQL document's needs: one per root field it selects (an unparsable one needs nothing yet). */
export function graphqlNeeds(query: unknown): Need[] {
  if (typeof query !== 'string') return [];
  try {
    return parse(query)
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .flatMap((d) => d.selectionSet.selections)
      .flatMap((s) => (s.kind === Kind.FIELD ? [graphqlFieldNeeds[s.name.value]] : []))
      .filter((n): n is Need => n !== undefined);
  } catch {
    return [];
  }
}

/** git smart HTTP: a push needs contents write, a clone or fetch contents read. */
export const gitNeed = (path: string, query: string): Need =>
  /git-receive-pack/.test(path) || /service=git-receive-pack/.test(query)
    ? need('contents', 'write')
    : need('contents', 'read');

/** The App an installation token was minted for, if any. */
function appOf(state: SimState, caller: Caller): SimApp | null {
  if (caller.kind !== 'token' || caller.token.kind !== 'installation') return null;
  const id = caller.token.installationId;
  return state.apps.find((a) => a.installations.some((i) => i.id === id)) ?? null;
}

/** The first need the caller's App was not granted, or null when it may go ahead. */
export function missingNeed(state: SimState, caller: Caller, needs: Need[]): Need | null {
  const granted = appOf(state, caller)?.permissions;
  if (!granted) return null;
  return needs.find((n) => !(granted[n.permission] === 'write' || granted[n.permission] === n.level)) ?? null;
}

export const describeNeed = (n: Need) => `${n.permission}:${n.level}`;
