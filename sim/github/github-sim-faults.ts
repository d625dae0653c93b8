import type { OperationId } from './github-sim-operations.js';

// Failures on cue, for the tests and for showing resilience in the demo: each rule fires on the
// next `times` requests to its operation, then disarms.

export type Fault =
  /** 502 before anything happens, as from GitHub's front end. */
  | { kind: 'bad-gateway' }
  /** 403 with retry-after and GitHub's secondary-rate-limit message; nothing happens. */
  | { kind: 'secondary-rate-limit'; retryAfter?: number }
  /** The request takes effect, then the connection drops before the reply. */
  | { kind: 'lost-reply' }
  /** Nothing happens and no reply comes: a GitHub that stopped answering, until the client gives up. */
  | { kind: 'hang' }
  /** Any status with GitHub's error shape; nothing happens. */
  | { kind: 'status'; status: number; message: string }
  /** A GraphQL error (HTTP 200), e.g. FORBIDDEN "Resource not accessible by integration". */
  | { kind: 'graphql-error'; type: string; message: string };

export type FaultTarget = OperationId | 'graphql' | 'git';

interface Rule {
  target: FaultTarget;
  fault: Fault;
  left: number;
}

export class FaultBook {
  private rules: Rule[] = [];

  add(target: FaultTarget, fault: Fault, times = 1) {
    this.rules.push({ target, fault, left: times });
  }

  clear() {
    this.rules = [];
  }

  /** The fault to apply to this request, if one is armed; consumes one use of it. */
  take(target: FaultTarget): Fault | null {
    const rule = this.rules.find((r) => r.target === target && r.left > 0);
    if (!rule) return null;
    rule.left -= 1;
    this.rules = this.rules.filter((r) => r.left > 0);
    return rule.fault;
  }
}

export function faultReply(
  fault: Fault,
  documentationUrl: string,
): { status: number; headers: Record<string, string>; body: Record<string, unknown> } | null {
  switch (fault.kind) {
    case 'bad-gateway':
      return { status: 502, headers: {}, body: { message: 'Server Error' } };
    case 'secondary-rate-limit':
      return {
        status: 403,
        headers: { 'retry-after': String(fault.retryAfter ?? 1), 'x-ratelimit-remaining': '4990' },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID SIM:0000:0000.',
          documentation_url:
            'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
          status: '403',
        },
      };
    case 'status':
      return {
        status: fault.status,
        headers: {},
        body: { message: fault.message, documentation_url: documentationUrl, status: String(fault.status) },
      };
    default:
      return null;
  }
}
