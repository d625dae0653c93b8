import {
  Anthropic,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { BootyError } from '../errors.js';
import type { Logger } from '../log.js';

// The SDK client, configured once: every call has a timeout, and the SDK retries 408/409/429/5xx
// and connection errors itself (honouring retry-after). What still fails afterwards becomes a
// BootyError: transient ones are retryable so the job's own backoff takes over; a request the API
// refuses (400, 401, 403, …) fails the step with the API's message.

export interface ClientOptions {
  apiKey: string;
  /** ANTHROPIC_BASE_URL; the public API when absent. */
  baseURL?: string;
  /** Per request, in milliseconds. */
  timeoutMs?: number;
  /** SDK retries before the error reaches the job. */
  maxRetries?: number;
  log?: Logger;
}

export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_RETRIES = 2;

export function createAnthropicClient(options: ClientOptions): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    logger: options.log ?? silentLogger,
    logLevel: 'warn',
  });
}

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Any failure of a Messages API call, as the BootyError the step throws. */
export function claudeError(err: unknown, step: string): BootyError {
  if (err instanceof BootyError) return err;
  if (err instanceof APIUserAbortError)
    return new BootyError('BOOTY_E_CLAUDE_TRANSIENT', {
      step,
      status: 'aborted',
      reason: 'the step was stopped',
    });
  if (err instanceof APIConnectionTimeoutError)
    return new BootyError('BOOTY_E_CLAUDE_TRANSIENT', {
      step,
      status: 'timeout',
      reason: 'the request timed out',
    });
  if (err instanceof APIConnectionError)
    return new BootyError(
      'BOOTY_E_CLAUDE_TRANSIENT',
      { step, status: 'connection', reason: err.message },
      { cause: err },
    );
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status;
    const reason = apiReason(err);
    if (status === 408 || status === 409 || status === 429 || status >= 500)
      return new BootyError('BOOTY_E_CLAUDE_TRANSIENT', { step, status, reason }, { cause: err });
    if (status === 401 || status === 403)
      return new BootyError('BOOTY_E_CLAUDE_AUTH', { status, reason }, { cause: err });
    return new BootyError('BOOTY_E_CLAUDE_REQUEST', { step, status, reason }, { cause: err });
  }
  // A response the SDK could not read (a proxy's HTML page, a cut-off body) may read next time.
  const message = err instanceof Error ? err.message : String(err);
  return new BootyError(
    'BOOTY_E_CLAUDE_TRANSIENT',
    { step, status: 'unreadable', reason: message },
    { cause: err },
  );
}

function apiReason(err: APIError): string {
  const type = err.type ? `${err.type}: ` : '';
  const message = err.apiMessage ?? err.message;
  const id = err.requestID ? ` (request-id ${err.requestID})` : '';
  return `${type}${message}${id}`;
}
