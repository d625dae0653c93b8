import type { Env } from '../../env.js';
import type { Logger } from '../../log.js';
import type { SandboxChoice } from '../../sandbox/sandbox-mode.js';
import { effectsOnFirstUse } from '../effects-on-first-use.js';
import type { Forge, ProgressComments } from '../forge.js';
import { authFromEnv } from './auth.js';
import { createGitHubClients, type GitHubClients } from './clients.js';
import { githubConversation } from './github-conversation.js';
import { githubWebhooks } from './github-webhooks.js';
import { hookDeliveries } from './hook-deliveries.js';
import { readPrBody, updatePrBody } from './pr-body.js';
import { reactEyes, upsertProgressComment } from './progress-comment.js';

// GitHub behind the forge port: REST and GraphQL through octokit (clients.ts), webhooks signed with
// HMAC-SHA256, an App's delivery log for catching up. GITHUB_API_URL points it at github.com,
// GitHub Enterprise or the local simulator alike.

export interface GitHubForge extends Forge {
  readonly clients: GitHubClients;
  /** What booty holds that must never show in a log, a comment or a prompt: the App's key, once read. */
  readonly secrets: string[];
}

export function createGitHubForge(options: {
  env: Env;
  log?: Logger;
  /** Hides booty's secrets in what it writes to GitHub. */
  scrub?: (text: string) => string;
  /** The sandbox's mode and who chose it, for the PR's notice when tests ran without bubblewrap. */
  sandbox?: SandboxChoice;
}): GitHubForge {
  const { env, log } = options;
  const auth = authFromEnv(env);
  const clients = createGitHubClients({ apiUrl: env.GITHUB_API_URL, auth, log });
  const secrets = auth.kind === 'app' ? [auth.privateKey] : [];
  return githubForge({
    clients,
    log,
    scrub: options.scrub,
    sandbox: options.sandbox,
    secrets,
    handle: env.BOOTY_HANDLE,
  });
}

/** The forge over clients made elsewhere (tests, the benchmarks). */
export function githubForge(options: {
  clients: GitHubClients;
  log?: Logger;
  scrub?: (text: string) => string;
  sandbox?: SandboxChoice;
  secrets?: string[];
  /** How people call on booty with a token (BOOTY_HANDLE); an App's own name replaces it. */
  handle?: string;
}): GitHubForge {
  const { clients, log, scrub, sandbox } = options;
  let handle = options.handle ?? 'booty';
  return {
    name: 'github',
    handle: () => handle,
    // An App is mentioned by its slug (`@my-booty`); a token's login is BOOTY_HANDLE's to say.
    identify: async () => {
      if (!clients.isApp) return handle;
      const app = await clients.forApp();
      const { data } = await app.request('GET /app');
      if (data?.slug) handle = data.slug;
      return handle;
    },
    clients,
    secrets: options.secrets ?? [],
    webhooks: githubWebhooks,
    conversation: githubConversation(clients),
    effects: effectsOnFirstUse(async () =>
      (await import('./github-effects.js')).createGitHubEffects({ clients, log, scrub, sandbox }),
    ),
    progress: githubProgress(clients),
    remote: {
      url: (repo) => clients.gitRemoteUrl(repo),
      credentials: (job) => clients.gitCredentials(job),
    },
    // Only an App can list its webhook's deliveries; a token's webhooks are another's to manage.
    history: clients.isApp ? hookDeliveries(clients) : null,
    stop: () => clients.stop(),
  };
}

/** The progress comment on GitHub: 👀 on the issue, and the one comment found by its marker. */
export function githubProgress(clients: GitHubClients): ProgressComments {
  return {
    acknowledge: async (job) => reactEyes(await clients.forJob(job), job),
    write: async (job, body, known) => upsertProgressComment(await clients.forJob(job), job, body, known),
    readPrBody: async (job) => readPrBody(await clients.forJob(job), job),
    updatePrBody: async (job, body) => updatePrBody(await clients.forJob(job), job, body),
  };
}
