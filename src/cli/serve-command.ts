import { leaseSettings, loadEnv, storeLocation } from '../env.js';
import { BootyError } from '../errors.js';
import { startLiveInspector } from '../gateway/live-inspector.js';
import type { WebhookProxy } from '../intake/webhook-proxy.js';
import { createLogger } from '../log.js';
import { endLeanStart } from '../main/lean-start.js';
import { openStore } from '../main/open-store.js';
import { serverSettings, startBooty } from '../main/serve.js';
import { installShutdownSignals } from '../main/signals.js';
import { probeBwrap } from '../sandbox/bwrap.js';
import { isPostgresUrl, redactUrl } from '../store/postgres/postgres-url.js';
import { type Command, intOption } from './command.js';

export const serveCommand: Command = {
  name: 'serve',
  usage: [
    'Usage: booty serve [--inspect] [--inspect-port N]',
    '',
    'Listens on $PORT (default 3000) for GitHub webhooks at POST /webhooks (WEBHOOK_PATH) and runs the jobs they',
    'start; unfinished jobs resume from their logs. Settings come from the environment, and from a',
    '.env file in this directory for what the environment does not set (see .env.example). With',
    'WEBHOOK_PROXY_URL set, webhooks also arrive through that smee.io channel.',
    '',
    '  --inspect          show the running jobs live in the Stately inspector; prints the URL',
    '  --inspect-port N   the inspector page port (default: any free port)',
  ].join('\n'),
  options: { inspect: { type: 'boolean' }, 'inspect-port': { type: 'string' } },
  positionals: [],
  async run({ values }, io) {
    // ./.env is in io.env already (main.ts), under what the real environment sets.
    const env = loadEnv(io.env, { server: true });
    // Everything that can be checked without opening anything, first: the webhook settings, an
    // App's key, the workdir. Each failure is one line naming the variable.
    const settings = serverSettings(env);
    // A server runs strangers' code all day: without a wall it does not start, unless told to.
    const sandbox = env.BOOTY_SANDBOX ?? 'required';
    if (sandbox === 'required') {
      const probe = await probeBwrap();
      if (!probe.ok) throw new BootyError('BOOTY_E_SANDBOX_UNAVAILABLE', { reason: probe.reason });
    }
    const log = createLogger({ level: env.LOG_LEVEL });
    const inspector = values.inspect
      ? await startLiveInspector({ port: intOption('serve', 'inspect-port', values['inspect-port']) ?? 0 })
      : null;
    // Every serve on a PostgreSQL database is one of its workers, leasing jobs as the env says.
    const location = storeLocation(env);
    const store = isPostgresUrl(location)
      ? openStore(location, { server: true, leases: leaseSettings(env) })
      : undefined;
    const booty = await startBooty(
      {
        env,
        log,
        inspect: inspector?.inspect,
        defaultSandbox: sandbox,
        store,
      },
      settings,
    ).catch(async (err: unknown) => {
      await store?.close();
      throw err;
    });
    const { server } = booty;
    let proxy: WebhookProxy | null = null;
    if (env.WEBHOOK_PROXY_URL) {
      try {
        // smee-client and undici load only for a serve that uses a channel.
        const { startWebhookProxy } = await import('../intake/webhook-proxy.js');
        proxy = await startWebhookProxy({
          source: env.WEBHOOK_PROXY_URL,
          target: `${server.url}${env.WEBHOOK_PATH}`,
          log,
        });
      } catch (err) {
        await booty.close();
        await store?.close();
        await inspector?.close();
        throw err;
      }
    }
    // The handlers go in before anything says "listening": a supervisor that signals as soon as
    // it reads that line must meet the graceful shutdown, not the default that kills at once.
    const stopped = new Promise<number>((resolve) => {
      installShutdownSignals(
        {
          close: async () => {
            // The channel first: a delivery it would forward now meets a closing gateway.
            await proxy?.close();
            await booty.close();
            await store?.close();
            await inspector?.close();
          },
          hurry: () => booty.hurry(),
        },
        { log, exit: resolve, drainMs: env.BOOTY_DRAIN_MS, graceMs: env.BOOTY_SHUTDOWN_GRACE_MS },
      );
    });
    // V8 goes back to its own tuning (main/lean-start.ts) once there is load to tune for: the
    // first request, or now when jobs resumed from their logs. Until then serve only waits.
    if (server.resumed.length > 0) endLeanStart();
    else server.app.server.once('request', endLeanStart);
    log.info(
      { url: server.url, db: redactUrl(location), leases: store?.leases?.settings },
      store?.leases
        ? 'booty is listening, and leasing jobs from the database with its other workers'
        : 'booty is listening',
    );
    io.out(`booty is listening on ${server.url} (webhooks: ${server.url}${env.WEBHOOK_PATH})`);
    if (proxy) io.out(`webhooks also arrive through ${proxy.source} (WEBHOOK_PROXY_URL)`);
    if (inspector) {
      if (server.dashboard) inspector.fallbackTo(`${server.url}/`);
      io.out(
        `inspector: ${inspector.url} (it embeds stately.ai's inspector${server.dashboard ? `; offline it falls back to ${server.url}/` : ', so it needs the internet'})`,
      );
    }
    const code = await stopped;
    // Whatever is still pending (a write to an unreachable GitHub, a timer) is in the log for the
    // next start: it must not keep the process alive past the shutdown.
    setImmediate(() => process.exit(code));
    return code;
  },
};
