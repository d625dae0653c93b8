// The one catalogue of booty's errors. Each has a stable code a user can search for, a message
// template, an HTTP status for the gateway, and whether retrying the same step may succeed.

type Params = Record<string, string | number>;

interface ErrorSpec {
  status: number;
  retryable: boolean;
  message: (p: Params) => string;
}

const spec = (status: number, retryable: boolean, message: (p: Params) => string): ErrorSpec => ({
  status,
  retryable,
  message,
});

export const catalogue = {
  // store
  BOOTY_E_VERSION_CONFLICT: spec(
    409,
    false,
    (p) =>
      `stream ${p.streamId} is at version ${p.actual}, not the expected ${p.expected}; re-read the stream and retry`,
  ),
  BOOTY_E_ISSUE_HAS_JOB: spec(
    409,
    false,
    (p) =>
      `issue ${p.repo}#${p.issue} has an unfinished job already (another worker started it at the same moment); that job answers the issue`,
  ),
  BOOTY_E_LEASE_LAPSED: spec(
    503,
    true,
    (p) =>
      `the lease of job ${p.jobId} lapsed (not renewed within ${p.seconds} s: this worker was stalled or cut off from the database); another worker resumes the job from its log, and this one stops it. If it happens often, raise BOOTY_LEASE_SECONDS`,
  ),
  BOOTY_E_JOB_HALTED: spec(
    500,
    true,
    (p) =>
      `job ${p.jobId} stopped on an error (${p.reason}), ${p.halts} time(s) in a row; no worker runs it again before ${p.at} (in ${p.seconds} s). The wait doubles with each halt in a row, up to 6 h, and starts over once a run ends without one; its in-flight effect runs again then`,
  ),
  BOOTY_E_STREAM_NOT_FOUND: spec(
    404,
    false,
    (p) => `no job ${p.streamId} in the event store; list jobs with \`booty jobs\``,
  ),
  BOOTY_E_DB_OPEN: spec(
    500,
    false,
    (p) =>
      `cannot open the database ${p.path}: ${p.reason}; check the path or set --db / BOOTY_DB (BOOTY_DATABASE_URL for PostgreSQL)`,
  ),
  BOOTY_E_DB_LOCKED: spec(
    503,
    true,
    (p) =>
      `another booty (pid ${p.pid}) holds the database ${p.path}${p.waitMs ? `, and did not let go within ${p.waitMs} ms` : ''}; stop it first, or give this one its own BOOTY_DB (many workers on one database is what the PostgreSQL store is for)`,
  ),
  BOOTY_E_STORE_UNAVAILABLE: spec(
    503,
    true,
    (p) =>
      `the database takes no writes now (${p.reason}); booty has paused its jobs and resumes them when writes succeed again; retry the delivery later`,
  ),
  BOOTY_E_STORE_LOST: spec(
    503,
    false,
    (p) =>
      `the database file ${p.path} was ${p.how} while booty was using it; booty stopped writing and runs no job: restore the file and restart booty`,
  ),
  BOOTY_E_STORE_READONLY: spec(
    503,
    true,
    (p) =>
      `the database file ${p.path} refuses writes (${p.code}: made immutable or read-only, or its file system remounted read-only); make it writable again (chattr -i, chmod u+w, a read-write mount)`,
  ),
  BOOTY_E_LEASES_UNAVAILABLE: spec(
    500,
    false,
    (p) =>
      `cannot start the job queue (pg-boss, in schema pgboss) on the database ${p.path}: ${p.reason}; on its first start the database user needs CREATE on the database (or create the schema pgboss for it beforehand)`,
  ),
  BOOTY_E_SCHEMA_NEWER: spec(
    500,
    false,
    (p) =>
      `the database ${p.path} has ${p.what} version ${p.found}, newer than this booty knows (${p.known}): a newer booty migrated it; run that release here (README: Operations, upgrades)`,
  ),
  BOOTY_E_QUEUE_FAULT: spec(
    503,
    true,
    (p) =>
      `the job queue's background work failed (${p.reason}); it tries again on its next round, and the jobs it leases are not affected unless this persists`,
  ),
  BOOTY_E_DB_MISSING: spec(
    404,
    false,
    (p) =>
      `no database at ${p.path}; pass --db PATH (or a postgres:// URL) or set BOOTY_DB (\`booty demo\` makes one)`,
  ),
  BOOTY_E_EVENT_INVALID: spec(
    400,
    false,
    (p) =>
      `${p.stream ? `event ${p.seq} of job ${p.stream} (${p.type})` : `event ${p.type}`} does not match its schema: ${p.reason}`,
  ),
  BOOTY_E_EVENT_UNKNOWN_TYPE: spec(
    500,
    false,
    (p) =>
      `event ${p.seq} of job ${p.stream} has the type ${p.type}, which booty does not know; the log was written by another program, or damaged`,
  ),
  BOOTY_E_EVENT_UNKNOWN_VERSION: spec(
    500,
    false,
    (p) =>
      `event ${p.seq} of job ${p.stream} (${p.type}) has schema version ${p.version}, newer than this booty knows (${p.known}); upgrade booty`,
  ),
  // machine and effects
  BOOTY_E_EFFECT_NOT_PROVIDED: spec(
    500,
    false,
    (p) => `effect ${p.src} has no implementation; provide it with machine.provide({ actors })`,
  ),
  BOOTY_E_EFFECT_OUTPUT: spec(
    500,
    false,
    (p) => `effect ${p.src} returned data that does not match its schema: ${p.reason}`,
  ),
  BOOTY_E_DELIVERY_RACE: spec(
    409,
    false,
    (p) =>
      `job ${p.jobId} took delivery ${p.deliveryId} as another writer recorded it first; the job stops here and goes on from its log at its next turn`,
  ),
  BOOTY_E_UNLOGGED_EVENT: spec(
    500,
    false,
    (p) =>
      `job ${p.jobId} received ${p.type}, which its log does not hold; every effect must be provided through invokeEffect (engine/effect.ts)`,
  ),
  BOOTY_E_EFFECT_FAILED: spec(500, false, (p) => `effect ${p.src} failed: ${p.reason}`),
  BOOTY_E_EFFECT_TRANSIENT: spec(503, true, (p) => `effect ${p.src} failed for now: ${p.reason}`),
  BOOTY_E_BUDGET_EXCEEDED: spec(402, false, (p) =>
    p.unit === 'usd'
      ? `the job's budget of $${p.max} would be exceeded (spent $${p.spent}, the next request may cost up to $${p.needed}); a writer's \`@booty continue\` raises it, or raise BOOTY_MAX_USD_PER_JOB (booty.yml's maxUsd only lowers it)`
      : `the job's token budget of ${p.max} would be exceeded (spent ${p.spent}, next request needs ~${p.needed}); raise BOOTY_MAX_TOKENS_PER_JOB`,
  ),
  BOOTY_E_LOG_TAMPERED: spec(
    500,
    false,
    (p) =>
      `the log of job ${p.jobId} was changed after it was written: ${p.reason}; booty will not run it (see \`booty replay ${p.jobId} --verify\`)`,
  ),
  BOOTY_E_JOB_DAMAGED: spec(
    409,
    false,
    (p) =>
      `job ${p.jobId} is damaged: its log does not check out, so booty takes no event for it and wrote nothing; \`booty replay ${p.jobId} --verify\` names the row, and labeling the issue again starts a fresh job`,
  ),
  BOOTY_E_REPLAY_DIVERGED: spec(
    500,
    false,
    (p) =>
      `replay diverged at event ${p.seq} (${p.type}): the log recorded ${p.recorded}, the machine reaches ${p.folded}`,
  ),
  BOOTY_E_SHUTTING_DOWN: spec(
    503,
    true,
    () => 'booty is shutting down and takes no new work; retry on the next start',
  ),
  // configuration and CLI
  BOOTY_E_ENV_INVALID: spec(500, false, (p) => `environment variable ${p.name} ${p.reason}`),
  BOOTY_E_USAGE: spec(400, false, (p) => `${p.reason}; see \`booty ${p.command} --help\``),
  BOOTY_E_LISTEN: spec(500, false, (p) => `cannot listen on ${p.address}: ${p.reason}`),
  BOOTY_E_INSPECTOR: spec(503, true, (p) => `the inspector could not ${p.op}: ${p.reason}`),
  // gateway (add gateway codes below this line)
  BOOTY_E_WEBHOOK_SIGNATURE: spec(
    401,
    false,
    (p) =>
      `the x-hub-signature-256 header ${p.reason}; check that the webhook secret matches GITHUB_WEBHOOK_SECRET`,
  ),
  BOOTY_E_WEBHOOK_TOKEN: spec(
    401,
    false,
    (p) =>
      `the x-gitlab-token header ${p.reason}; check that the webhook's secret token matches GITLAB_WEBHOOK_SECRET`,
  ),
  BOOTY_E_WEBHOOK_HEADER: spec(400, false, (p) => `the ${p.header} header ${p.reason}`),
  BOOTY_E_WEBHOOK_NOT_JSON: spec(400, false, (p) => `the delivery body is not JSON: ${p.reason}`),
  BOOTY_E_WEBHOOK_PAYLOAD: spec(
    400,
    false,
    (p) => `the ${p.event} payload does not have the expected shape: ${p.reason}`,
  ),
  BOOTY_E_WEBHOOK_TOO_LARGE: spec(
    413,
    false,
    (p) => `the delivery body is over the limit of ${p.limit} bytes`,
  ),
  BOOTY_E_HTTP_BAD_REQUEST: spec(400, false, (p) => `bad request: ${p.reason}`),
  BOOTY_E_HTTP_NOT_FOUND: spec(404, false, (p) => `no route ${p.method} ${p.url}`),
  BOOTY_E_JOB_VIEW_OFF: spec(
    404,
    false,
    () =>
      'the job view is off on this address: set BOOTY_DASHBOARD=on to serve it (people then open it with a read token from `booty token create --scope read`); the jobs API at /jobs answers a request with a token',
  ),
  BOOTY_E_NOT_READY: spec(503, true, (p) => `booty is not ready: ${p.reason}`),
  BOOTY_E_API_UNAUTHORIZED: spec(
    401,
    false,
    (p) =>
      `${p.reason}; send a token as \`Authorization: Bearer <token>\` (an operator makes one with \`booty token create --scope read\` or \`--scope write\`)`,
  ),
  BOOTY_E_API_FORBIDDEN: spec(
    403,
    false,
    (p) =>
      `token ${p.id} (${p.name}) may only read; ${p.action} needs a token made with \`booty token create --scope write\``,
  ),
  BOOTY_E_API_RATE_LIMITED: spec(
    429,
    true,
    (p) =>
      `over the jobs API's limit of ${p.max} requests a minute (BOOTY_API_RATE_LIMIT); try again in ${p.after}`,
  ),
  BOOTY_E_REPO_NOT_ALLOWED: spec(
    403,
    false,
    (p) => `booty does not work on ${p.repo}: BOOTY_REPOS leaves it out`,
  ),
  BOOTY_E_JOB_NOT_RETRYABLE: spec(409, false, (p) => `job ${p.jobId} cannot be retried: ${p.reason}`),
  BOOTY_E_JOB_FINISHED: spec(
    409,
    false,
    (p) => `job ${p.jobId} has finished (${p.state}); there is nothing to cancel`,
  ),
  BOOTY_E_API_TOKEN_UNKNOWN: spec(
    404,
    false,
    (p) => `no API token ${p.id}, or it was revoked already; list them with \`booty token list\``,
  ),
  BOOTY_E_INTERNAL: spec(500, false, (p) => `unexpected error (request ${p.requestId}); see the server log`),
  // workspace and sandbox (add workspace and sandbox codes below this line)
  BOOTY_E_CONFIG_INVALID: spec(
    422,
    false,
    (p) =>
      `${p.path} is invalid: ${p.field} ${p.problem}; fix it on the default branch and label the issue again`,
  ),
  BOOTY_E_NO_TEST_COMMAND: spec(
    422,
    false,
    () =>
      'no test command: the repository has no .github/booty.yml with test.command, and no package.json, pyproject.toml, pytest.ini, go.mod or Cargo.toml to detect one from',
  ),
  BOOTY_E_GIT_REMOTE: spec(503, true, (p) => `git ${p.op} could not reach the remote: ${p.reason}`),
  BOOTY_E_GIT_AUTH: spec(
    401,
    false,
    (p) => `git ${p.op} was refused by the remote: ${p.reason}; check the token's access to the repository`,
  ),
  BOOTY_E_GIT_FAILED: spec(500, false, (p) => `git ${p.op} failed: ${p.reason}`),
  BOOTY_E_BRANCH_FOREIGN: spec(
    409,
    false,
    (p) =>
      `branch ${p.branch} on the remote has commits booty did not make (tip ${p.sha}); delete the branch or remove the label`,
  ),
  BOOTY_E_HEAD_MOVED: spec(
    409,
    false,
    (p) =>
      `branch ${p.branch} moved under booty (now at ${p.sha}) ${p.paths ? `and the new commits touch files this round changed (${p.paths})` : 'and kept moving while booty pushed'}; the round starts again from the new head`,
  ),
  BOOTY_E_BRANCH_MISSING: spec(
    404,
    false,
    (p) =>
      `branch ${p.branch} is not on the remote (deleted, or never pushed): there is no pull request head to build on`,
  ),
  BOOTY_E_BASE_BRANCH_MISSING: spec(
    422,
    false,
    (p) =>
      `${p.path} sets baseBranch: ${p.branch}, but the remote has no branch ${p.branch}: push it, or set baseBranch to an existing branch (or remove it to build on the default branch, ${p.defaultBranch}) on the default branch, and label the issue again`,
  ),
  BOOTY_E_WORKSPACE_ESCAPE: spec(
    500,
    false,
    (p) => `refusing to write ${p.path}: it would land outside the job's workspace (${p.where})`,
  ),
  BOOTY_E_WORKSPACE_LOST: spec(
    500,
    false,
    (p) => `cannot rebuild the workspace of job ${p.jobId}: ${p.reason}`,
  ),
  BOOTY_E_INSTALL_FAILED: spec(
    422,
    false,
    (p) => `the install command \`${p.command}\` failed (${p.status}) on the base commit: ${p.tail}`,
  ),
  BOOTY_E_INSTALL_NETWORK: spec(
    503,
    true,
    (p) => `the install command \`${p.command}\` failed on a network error: ${p.tail}`,
  ),
  BOOTY_E_SANDBOX_UNAVAILABLE: spec(
    500,
    false,
    (p) =>
      `the sandbox is required, but bubblewrap cannot run here (${p.reason}); install it with \`apt-get install bubblewrap\`, or set BOOTY_SANDBOX=off to run tests without it`,
  ),
  // claude (add claude codes below this line)
  BOOTY_E_CLAUDE_TRANSIENT: spec(
    503,
    true,
    (p) =>
      `Claude is unavailable for now (${p.status}): ${p.reason}; the job retries the ${p.step} step later`,
  ),
  BOOTY_E_CLAUDE_AUTH: spec(
    401,
    false,
    (p) => `Claude refused the credentials (${p.status}): ${p.reason}; check ANTHROPIC_API_KEY`,
  ),
  BOOTY_E_CLAUDE_REQUEST: spec(
    400,
    false,
    (p) => `Claude rejected the ${p.step} request (${p.status}): ${p.reason}`,
  ),
  BOOTY_E_CLAUDE_ANSWER_INVALID: spec(
    502,
    false,
    (p) => `Claude's ${p.step} answer is still invalid after one repair turn: ${p.reason}`,
  ),
  BOOTY_E_CLAUDE_CONTEXT: spec(
    413,
    false,
    (p) =>
      `the ${p.step} request needs ${p.needed} input tokens even after trimming, over BOOTY_MAX_INPUT_TOKENS=${p.max}; raise it or shorten the issue`,
  ),
  // github (add github codes below this line)
  BOOTY_E_GITHUB_UNAVAILABLE: spec(
    503,
    true,
    (p) => `GitHub did not answer ${p.method} ${p.url}: ${p.reason}; booty retries the step`,
  ),
  BOOTY_E_GITHUB_RATE_LIMITED: spec(
    429,
    true,
    (p) => `GitHub rate-limited ${p.method} ${p.url} (${p.reason}); booty retries the step later`,
  ),
  BOOTY_E_GITHUB_AUTH: spec(
    502,
    false,
    (p) =>
      `GitHub rejected booty's credentials for ${p.method} ${p.url}: ${p.reason}; check GITHUB_TOKEN, or GITHUB_APP_ID and the private key`,
  ),
  BOOTY_E_GITHUB_REQUEST: spec(
    502,
    false,
    (p) => `GitHub refused ${p.method} ${p.url} with ${p.status}: ${p.reason}`,
  ),
  BOOTY_E_GITHUB_GRAPHQL: spec(502, false, (p) => `GitHub GraphQL ${p.operation} failed: ${p.reason}`),
  BOOTY_E_GITHUB_CREDENTIALS: spec(
    500,
    false,
    (p) =>
      `no usable GitHub credentials: ${p.reason}; set GITHUB_TOKEN, or GITHUB_APP_ID with GITHUB_PRIVATE_KEY or GITHUB_PRIVATE_KEY_PATH`,
  ),
  BOOTY_E_GITHUB_PRECONDITION: spec(
    500,
    false,
    (p) => `${p.step} cannot run for job ${p.jobId}: ${p.reason}`,
  ),
  // gitlab (add gitlab codes below this line)
  BOOTY_E_GITLAB_UNAVAILABLE: spec(
    503,
    true,
    (p) => `GitLab did not answer ${p.method} ${p.url}: ${p.reason}; booty retries the step`,
  ),
  BOOTY_E_GITLAB_RATE_LIMITED: spec(
    429,
    true,
    (p) => `GitLab rate-limited ${p.method} ${p.url} (${p.reason}); booty retries the step later`,
  ),
  BOOTY_E_GITLAB_AUTH: spec(
    502,
    false,
    (p) =>
      `GitLab rejected booty's token for ${p.method} ${p.url}: ${p.reason}; check GITLAB_TOKEN (a project or group access token with the api scope)`,
  ),
  BOOTY_E_GITLAB_REQUEST: spec(
    502,
    false,
    (p) => `GitLab refused ${p.method} ${p.url} with ${p.status}: ${p.reason}`,
  ),
  BOOTY_E_GITLAB_PRECONDITION: spec(
    500,
    false,
    (p) => `${p.step} cannot run for job ${p.jobId}: ${p.reason}`,
  ),
  BOOTY_E_FORGE_NOT_SERVED: spec(
    400,
    false,
    (p) =>
      `this booty does not serve ${p.forge}: set ${p.forge === 'gitlab' ? 'GITLAB_TOKEN and GITLAB_WEBHOOK_SECRET' : 'GITHUB_TOKEN (or a GitHub App) and GITHUB_WEBHOOK_SECRET'} to serve it`,
  ),
  // eval (add `booty eval` codes below this line)
  BOOTY_E_EVAL_TASKS_UNREADABLE: spec(
    400,
    false,
    (p) => `cannot read the eval tasks in ${p.file}: ${p.reason}; give a JSONL file with one task a line`,
  ),
  BOOTY_E_EVAL_TASK_INVALID: spec(
    400,
    false,
    (p) =>
      `${p.file} line ${p.line}: ${p.field} ${p.problem}; see "Measuring booty" in the README for the task format`,
  ),
  BOOTY_E_EVAL_TASK_SETUP: spec(
    500,
    false,
    (p) => `task ${p.task}: ${p.reason}; fix the task's line (${p.origin}) and run again`,
  ),
  BOOTY_E_EVAL_CASSETTE: spec(
    400,
    false,
    (p) => `the cassette in ${p.dir} ${p.reason}; record it again with --record ${p.dir}`,
  ),
  BOOTY_E_EVAL_CASSETTE_MISS: spec(
    400,
    false,
    (p) =>
      `replay: request ${p.n} (${p.method} ${p.path}) is not in the cassette ${p.dir}: ${p.reason}; the run differs from the recorded one (record it again with --record)`,
  ),
  BOOTY_E_EVAL_DIR_USED: spec(
    400,
    false,
    (p) => `${p.dir} holds an earlier eval run (${p.file}); give an empty or new --dir`,
  ),
} satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof catalogue;

export class BootyError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly params: Params;
  /** How long the other side asked booty to wait before trying again (a rate limit's Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, params: Params = {}, options?: { cause?: unknown; retryAfterMs?: number }) {
    const entry: ErrorSpec = catalogue[code];
    super(entry.message(params), options);
    this.name = 'BootyError';
    this.code = code;
    this.status = entry.status;
    this.retryable = entry.retryable;
    this.params = params;
    this.retryAfterMs = options?.retryAfterMs;
  }

  toJSON() {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

export const isBootyError = (err: unknown, code?: ErrorCode): err is BootyError =>
  err instanceof BootyError && (code === undefined || err.code === code);
