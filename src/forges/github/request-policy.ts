import type { Octokit } from '@octokit/rest';
import { BootyError } from '../../errors.js';

// How booty's GitHub requests wait, as one octokit plugin. It retries nothing: a failed GitHub
// call fails its step, and the job retries the step (job-logic.ts), logged and bounded, with the
// wait GitHub named. So one call is tried at most BOOTY_MAX_RETRIES + 1 times, in one place, and
// every step is idempotent (it finds what an earlier try made before making it). What it does:
// - names the wait GitHub asks for on a failure: a secondary rate limit's Retry-After (60 s when it
//   names none), a spent hourly limit's reset; `retryAfterMs` on the error carries it to the step;
// - against github.com, starts writes at least 1 s apart, and writes that notify people 3 s apart,
//   as GitHub asks of integrations (plugin-throttling's rules, without its per-request timers);
// - at shutdown, aborts the requests under way and refuses new ones.

export interface RequestPolicyOptions {
  /** Pace writes as GitHub asks; off for a loopback URL (the simulator). */
  paced: boolean;
  /** Shutdown: requests under way are aborted, and none waits or starts again. */
  stop?: AbortSignal;
}

// GitHub's routes whose writes notify people (plugin-throttling's generated list).
const NOTIFYING =
  /^\/(?:orgs\/[^/]+\/(?:invitations(?:\/[^/]+)?|teams\/[^/]+\/discussions(?:\/[^/]+\/comments)?)|repos\/[^/]+\/[^/]+\/(?:collaborators\/[^/]+|commits\/[^/]+\/comments|issues(?:\/[^/]+\/(?:comments|sub_issue|sub_issues\/priority))?|pulls(?:\/[^/]+\/(?:comments(?:\/[^/]+\/replies)?|merge|requested_reviewers|reviews))?|releases)|teams\/[^/]+\/discussions(?:\/[^/]+\/comments)?)$/i;

const TOKEN_ROUTE =
  /^\/(?:app\/installations\/[^/]+\/access_tokens|applications\/[^/]+\/token(?:\/scoped)?)$/;

interface Failure {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined>; data?: { errors?: { type?: string }[] } };
}

/** The wait GitHub asks for before the next try (ms), or null when it names none. */
export function waitAsked(err: Failure, now = Date.now()): number | null {
  const status = err.status ?? 0;
  const headers = err.response?.headers ?? {};
  if ((status === 403 || status === 429) && /\bsecondary rate\b/i.test(err.message ?? ''))
    return (Number(headers['retry-after']) || 60) * 1000;
  const spent =
    ((status === 403 || status === 429) && headers['x-ratelimit-remaining'] === '0') ||
    (err.response?.data?.errors ?? []).some((e) => e.type === 'RATE_LIMITED');
  const reset = Number(headers['x-ratelimit-reset']) * 1000;
  if (spent && reset) return Math.max(reset - now + 1000, 0);
  if (status === 429 && headers['retry-after']) return Number(headers['retry-after']) * 1000;
  return null;
}

/** GitHub's own failure, which it reports as a GraphQL error in a 200. */
const HICCUP = /Something went wrong while executing your query/;

/** The first GraphQL error's message when GitHub failed or refused for a limit, else null. */
function graphqlTrouble(data: unknown): string | null {
  const errors = (data as { errors?: { type?: string; message?: string }[] } | null)?.errors ?? [];
  const trouble = errors.find((e) => e.type === 'RATE_LIMITED' || HICCUP.test(e.message ?? ''));
  return trouble ? (trouble.message ?? trouble.type ?? 'GraphQL error') : null;
}

/** Waits, or ends early when `stop` fires. */
function sleep(ms: number, stop?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    }
    stop?.addEventListener('abort', done, { once: true });
  });
}

const stoppedError = () =>
  new BootyError('BOOTY_E_SHUTTING_DOWN', {}, { cause: new Error('booty stopped its GitHub requests') });

/** Writes one after another, each starting `gapMs` after the one before it; none waits once `stop` fires. */
export function pacer(gapMs: number, stop?: AbortSignal) {
  let turn: Promise<void> = Promise.resolve();
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const mine = turn.then(async () => {
      await sleep(Math.max(0, last + gapMs - Date.now()), stop);
      last = Date.now();
    });
    turn = mine;
    return mine;
  };
}

/** The plugin: pass the result to `Octokit.plugin`. One pacing per call, shared by its clients. */
export function requestPolicy(options: RequestPolicyOptions) {
  const { stop } = options;
  const writes = pacer(1000, stop);
  const notifying = pacer(3000, stop);
  return (octokit: Pick<Octokit, 'hook'>) => {
    octokit.hook.wrap('request', async (request, params) => {
      const { pathname } = new URL(params.url, 'http://github.test');
      const graphql = pathname.startsWith('/graphql');
      const write = params.method !== 'GET' && params.method !== 'HEAD' && !TOKEN_ROUTE.test(pathname);
      // The caller's own signal still counts; shutdown's is added to it. Set on these very options:
      // before-after-hook (4.0) gives the hooks inside this one (octokit's auth, its request log)
      // the options the request started with, not the ones passed on, so a copy carrying the
      // signal never reached fetch and shutdown waited on a hanging GitHub (before-after-hook#125).
      const own = (params.request as { signal?: AbortSignal } | undefined)?.signal;
      const signal = stop && own ? AbortSignal.any([stop, own]) : (stop ?? own);
      if (signal) params.request = { ...params.request, signal };
      if (stop?.aborted) throw stoppedError();
      if (options.paced && (write || graphql)) {
        await writes();
        if (write && NOTIFYING.test(pathname)) await notifying();
        if (stop?.aborted) throw stoppedError();
      }
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(params);
      } catch (err) {
        if (stop?.aborted) throw stoppedError();
        // The wait GitHub named goes with the failure to the step that retries (github-errors.ts).
        const wait = waitAsked(err as Failure);
        if (wait !== null) Object.assign(err as object, { retryAfterMs: wait });
        throw err;
      }
      // GitHub's own hiccup, or a spent limit, arrives as a GraphQL error in a 200: a failure the
      // step retries, not an answer.
      const trouble = graphqlTrouble(graphql ? response.data : null);
      if (trouble === null) return response;
      const reason = { method: 'POST', url: 'graphql', reason: trouble };
      if (HICCUP.test(trouble)) throw new BootyError('BOOTY_E_GITHUB_UNAVAILABLE', reason);
      const wait = waitAsked({ status: 200, response: response as Failure['response'] });
      throw new BootyError('BOOTY_E_GITHUB_RATE_LIMITED', reason, { retryAfterMs: wait ?? undefined });
    });
    return {};
  };
}
