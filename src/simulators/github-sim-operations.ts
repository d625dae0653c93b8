// The REST operations the GitHub simulator serves, by GitHub's own operation ids. The OpenAPI
// subset under ./openapi is extracted for exactly these (scripts/extract-openapi-subset.ts).

export const servedOperations = [
  'apps/get-authenticated',
  'apps/get-repo-installation',
  'apps/create-installation-access-token',
  'apps/create-from-manifest',
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
] as const;

export type OperationId = (typeof servedOperations)[number];
