import picomatch from 'picomatch';
import { type Env, isSelfRepo } from '../env.js';
import { BootyError } from '../errors.js';
import { checkJobPrerequisites } from './readiness.js';

// What the gateway needs from the environment, checked before anything opens: a server that cannot
// verify a delivery, or whose repository filter is a typo, must not start; nor one whose first job
// would fail on its setup (an App key that does not parse, a workdir it cannot write). /readyz runs
// this again, so a key file removed under a running booty shows there.

export interface GatewayConfig {
  triggerLabel: string;
  /** Where deliveries are posted (WEBHOOK_PATH, Probot's name; default /webhooks). */
  webhookPath: string;
  /** The current secret first, then the previous one while a rotation is under way. */
  secrets: string[];
  /** Whether a repository (owner/name) may get jobs; BOOTY_REPOS empty allows all. */
  isAllowedRepo: (fullName: string) => boolean;
  /** Whether a repository is booty's own, whose PRs stay draft. */
  isSelfRepo: (fullName: string) => boolean;
}

const repoGlob = /^[^/\s]+\/[^/\s]+$/;

export function gatewayConfig(env: Env): GatewayConfig {
  if (!env.GITHUB_WEBHOOK_SECRET) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITHUB_WEBHOOK_SECRET',
      reason:
        "is missing: set it (or Probot's WEBHOOK_SECRET) to the secret of your GitHub App or repository webhook",
    });
  }
  const bad = env.BOOTY_REPOS.find((glob) => !repoGlob.test(glob));
  if (bad !== undefined) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'BOOTY_REPOS',
      reason: `is invalid: "${bad}" is not an owner/name glob like org/* or org/repo`,
    });
  }
  if (env.BOOTY_SELF_REPO && !repoGlob.test(env.BOOTY_SELF_REPO)) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'BOOTY_SELF_REPO',
      reason: `is invalid: "${env.BOOTY_SELF_REPO}" is not owner/name`,
    });
  }
  checkJobPrerequisites(env);
  // GitHub treats owner and repository names case-insensitively, so the globs do too.
  const allowed = env.BOOTY_REPOS.length > 0 ? picomatch(env.BOOTY_REPOS, { nocase: true }) : () => true;
  return {
    triggerLabel: env.BOOTY_TRIGGER_LABEL,
    webhookPath: env.WEBHOOK_PATH,
    secrets: [env.GITHUB_WEBHOOK_SECRET, env.GITHUB_WEBHOOK_SECRET_PREVIOUS].filter(
      (s): s is string => s !== undefined,
    ),
    isAllowedRepo: (fullName) => allowed(fullName),
    isSelfRepo: (fullName) => isSelfRepo(env, fullName),
  };
}
