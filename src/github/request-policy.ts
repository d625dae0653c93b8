import type { Octokit } from '@octokit/rest';
import { BootyError } from '../errors.js';
import type { Logger } from '../log.js';

// How booty's GitHub requests wait and retry, as one octokit plugin. It keeps the rules of
// octokit's retry and throttling plugins, which it replaces because their limiters cost about
// 5 ms of timers on every request, and a job makes dozens:
// - a transient failure (5xx, a lost connection, 429) is retried after (n+1)² × base ms, unless
//   the request says `request: { retries: 0 }` (a create that must not be repeated blindly);
// - a secondary rate limit means GitHub did nothing, so it is retried, even for a create, after
//   the Retry-After it names (60 s when it names none);
// - a spent hourly limit is waited out once, if it resets within a minute; longer waits would hold
//   the job's slot, so the step's own retry waits instead;
// - against github.com, writes start at least 1 s apart, and writes that notify people 3 s apart,
//   as GitHub asks of integrations.

export interface RequestPolicyOptions {
  retries: number;
  /** Each retry waits (n+1)² × this many ms, and Retry-After seconds × this. */
  baseMs: number;
  /** Pace writes as GitHub asks; off for a loopback URL (the simulator). */
  paced: boolean;
  log?: Pick<Logger, 'warn'>;
  /** Shutdown: requests under way are aborted, and none waits, retries or starts again. */
  stop?: AbortSignal;
}

// plugin-retry's list: these statuses are answers, not accidents.
const NOT_TRANSIENT = new Set([400, 401, 403, 404, 410, 422, 451]);

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

type Decision = { retry: false } | { retry: true; waitMs: number; why: string };

/** What to do after failure `count` (0 for the first) of a request. */
export function decide(
  err: Failure,
  count: number,
  p: { retries: number; transientRetries: number; baseMs: number },
): Decision {
  const status = err.status ?? 0;
  const headers = err.response?.headers ?? {};
  if ((status === 403 || status === 429) && /\bsecondary rate\b/i.test(err.message ?? '')) {
    const after = Number(headers['retry-after']) || 60;
    return count < p.retries
      ? { retry: true, waitMs: after * p.baseMs, why: 'GitHub secondary rate limit' }
      : { retry: false };
  }
  const spent =
    ((status === 403 || status === 429) && headers['x-ratelimit-remaining'] === '0') ||
    (err.response?.data?.errors ?? []).some((e) => e.type === 'RATE_LIMITED');
  if (spent) {
    // With no reset time there is nothing to wait for: the step's own retry waits instead.
    const reset = Number(headers['x-ratelimit-reset']) * 1000;
    const after = Math.max(Math.ceil((reset - Date.now()) / 1000) + 1, 0);
    return count < 1 && after <= 60
      ? { retry: true, waitMs: after * p.baseMs, why: 'GitHub rate limit' }
      : { retry: false };
  }
  if (status >= 400 && !NOT_TRANSIENT.has(status) && count < p.transientRetries) {
    return { retry: true, waitMs: (count + 1) ** 2 * p.baseMs, why: 'transient failure' };
  }
  return { retry: false };
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
      const ownRetries = (params.request as { retries?: number } | undefined)?.retries;
      const limits = {
        retries: options.retries,
        transientRetries: ownRetries ?? options.retries,
        baseMs: options.baseMs,
      };
      // The caller's own signal still counts; shutdown's is added to it.
      const own = (params.request as { signal?: AbortSignal } | undefined)?.signal;
      const signal = stop && own ? AbortSignal.any([stop, own]) : (stop ?? own);
      const sent = signal ? { ...params, request: { ...params.request, signal } } : params;
      for (let count = 0; ; count++) {
        if (stop?.aborted) throw stoppedError();
        if (options.paced && (write || graphql)) {
          await writes();
          if (write && NOTIFYING.test(pathname)) await notifying();
          if (stop?.aborted) throw stoppedError();
        }
        let decision: Decision;
        try {
          const response = await request(sent);
          // GitHub's own hiccup, or a spent limit, arrives as a GraphQL error in a 200. When it is
          // not retried, the caller gets the response and octokit's GraphQL error names it.
          const message = graphqlTrouble(graphql ? response.data : null);
          if (message === null) return response;
          const hiccup = HICCUP.test(message);
          decision = decide(
            { status: hiccup ? 500 : 200, message, response: response as Failure['response'] },
            count,
            limits,
          );
          if (!decision.retry) return response;
        } catch (err) {
          if (stop?.aborted) throw stoppedError();
          decision = decide(err as Failure, count, limits);
          if (!decision.retry) throw err;
        }
        options.log?.warn(
          { method: params.method, url: params.url, retryInMs: decision.waitMs, count },
          decision.why,
        );
        await sleep(decision.waitMs, stop);
      }
    });
    return {};
  };
}
