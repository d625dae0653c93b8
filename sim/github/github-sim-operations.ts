// The REST operations the GitHub simulator serves, by GitHub's own operation ids. The OpenAPI
// subset under ./openapi is extracted for exactly these (scripts/extract-openapi-subset.ts).

export const servedOperations = [
  'apps/get-authenticated',
  'apps/get-repo-installation',
  'apps/create-installation-access-token',
  'apps/create-from-manifest',
  // The App's webhook deliveries: listed, and one redelivered (booty catching up what it missed).
  'apps/list-webhook-deliveries',
  'apps/redeliver-webhook-delivery',
  'repos/get',
  'issues/get',
  'issues/list-comments',
  'issues/create-comment',
  'issues/update-comment',
  'reactions/create-for-issue',
  'pulls/list',
  'pulls/create',
  'pulls/get',
  'pulls/update',
  // The PR conversation: reviews, review comments, reactions, who may ask for what.
  'issues/get-comment',
  'reactions/create-for-issue-comment',
  'reactions/list-for-issue-comment',
  'reactions/create-for-pull-request-review-comment',
  'reactions/list-for-pull-request-review-comment',
  'pulls/create-review',
  'pulls/list-reviews',
  'pulls/get-review',
  'pulls/list-comments-for-review',
  'pulls/list-review-comments',
  'pulls/get-review-comment',
  'pulls/create-review-comment',
  'pulls/create-reply-for-review-comment',
  'pulls/merge',
  'repos/get-collaborator-permission-level',
  // CI: checks, commit statuses and GitHub Actions runs for a commit.
  'checks/create',
  'checks/get',
  'checks/list-for-ref',
  'checks/list-suites-for-ref',
  'repos/create-commit-status',
  'repos/get-combined-status-for-ref',
  'repos/list-commit-statuses-for-ref',
  'actions/list-workflow-runs-for-repo',
  'actions/get-workflow-run',
  'actions/list-jobs-for-workflow-run',
  'actions/get-job-for-workflow-run',
  'actions/download-job-logs-for-workflow-run',
  'actions/re-run-workflow-failed-jobs',
  // Escalation: reviewers requested on a draft, or the issue assigned.
  'pulls/request-reviewers',
  'pulls/list-requested-reviewers',
  'issues/add-assignees',
] as const;

export type OperationId = (typeof servedOperations)[number];
