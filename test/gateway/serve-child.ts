import { loadEnv } from '../../src/env.js';
import { createLogger } from '../../src/log.js';
import { composeBooty } from '../../src/main/compose.js';
import { startServer } from '../../src/main/serve.js';
import { installShutdownSignals } from '../../src/main/signals.js';
import { gatedEffects } from './gateway-harness.js';

// `booty serve` in miniature, for tests that need a real process: it reads the environment,
// starts the gateway with jobs held in `preparing`, and reports its URL over IPC. Start-up errors
// print one line and exit 1, as the CLI does.

try {
  const env = loadEnv(process.env);
  const log = createLogger({ level: 'warn' });
  const effects = gatedEffects({ gated: true }).impls;
  const server = await startServer(await composeBooty({ env, log, effects, server: true }));
  installShutdownSignals(server, { log });
  process.send?.({ url: server.url });
} catch (err) {
  process.stderr.write(`booty: ${(err as Error).message}\n`);
  process.exit(1);
}
