import { SmeeClient } from 'smee-client';
import { BootyError } from '../errors.js';
import type { Logger } from '../log.js';

// Webhooks through a smee.io channel (WEBHOOK_PROXY_URL, Probot's convention), for a booty that
// GitHub cannot reach: a laptop, a network behind NAT. smee-client holds an event stream open to the
// channel and posts each delivery it hears to booty's own /webhooks, headers and signature included,
// where it is verified like any other. For development: a production booty takes them directly.

export interface WebhookProxy {
  source: string;
  close(): Promise<void>;
}

export interface WebhookProxyOptions {
  /** The channel, e.g. https://smee.io/abc123. */
  source: string;
  /** booty's own webhook route, e.g. http://127.0.0.1:3000/webhooks. */
  target: string;
  log: Logger;
  /** How long the first connection may take before start-up fails (default 10 s). */
  connectTimeoutMs?: number;
  /** The wait before a new connection when the channel closed the stream (default 5 s). */
  reconnectMs?: number;
}

export async function startWebhookProxy(options: WebhookProxyOptions): Promise<WebhookProxy> {
  const { source, target } = options;
  const log = options.log.child({ component: 'webhook-proxy', source });
  // smee-client logs each forwarded delivery and its status: that is debug detail here.
  const logger = {
    info: (...args: unknown[]) => log.debug(args.map(String).join(' ')),
    error: (...args: unknown[]) => log.warn(args.map(describe).join(' ')),
  };
  let closing = false;
  let client: SmeeClient | null = null;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new SmeeClient({
      source,
      target,
      logger,
      maxConnectionTimeout: options.connectTimeoutMs ?? 10_000,
    });
    let events: Awaited<ReturnType<SmeeClient['start']>>;
    try {
      events = await next.start();
    } catch (err) {
      await next.stop(); // a failed first connection would otherwise keep retrying, and the process alive
      throw err;
    }
    // close() ran while this one connected: it stopped the old client, so this one stops itself.
    if (closing) {
      await next.stop();
      return;
    }
    client = next;
    // The stream reconnects by itself after a network error, but a channel that answers with an
    // error status closes it for good: open a new one after a pause, until booty stops.
    events.addEventListener('error', () => {
      if (closing || events.readyState !== events.CLOSED || client !== next) return;
      log.warn({ retryInMs: options.reconnectMs ?? 5_000 }, 'the webhook channel closed the stream');
      timer = setTimeout(reconnect, options.reconnectMs ?? 5_000);
    });
  };
  const reconnect = () => {
    if (closing) return;
    connect().catch((err: unknown) => {
      log.warn({ err: describe(err) }, 'cannot reach the webhook channel; trying again');
      if (!closing) timer = setTimeout(reconnect, options.reconnectMs ?? 5_000);
    });
  };

  try {
    await connect();
  } catch (err) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'WEBHOOK_PROXY_URL',
      reason: `could not be reached (${describe(err)}): check the channel URL (https://smee.io/new makes one), or unset it to take webhooks at /webhooks directly`,
    });
  }
  log.info({ target }, 'taking webhooks through the channel');
  return {
    source,
    async close() {
      closing = true;
      clearTimeout(timer);
      await client?.stop();
    },
  };
}

/** An EventSource error is an event, not an Error: its message (and status) say what happened. */
function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  const e = err as { message?: string; code?: number } | null;
  if (e && typeof e === 'object' && (e.message || e.code))
    return [e.code, e.message].filter(Boolean).join(' ');
  return String(err);
}
