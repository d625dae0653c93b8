import picomatch from 'picomatch';
import { type Env, isSelfRepo, servedForge } from '../env.js';
import { BootyError } from '../errors.js';
import type { IntakeConfig } from '../forges/forge.js';

// What intake needs from the environment, checked before anything opens: a server that cannot
// verify a delivery, or whose repository filter is a typo, must not start.

/** What intake reads from the environment: the forge's settings, and where deliveries are posted. */
export interface IntakeSettings extends IntakeConfig {
  /** Where deliveries are posted (WEBHOOK_PATH, Probot's name; default /webhooks). */
  webhookPath: string;
}

// GitLab's namespaces nest (group/subgroup/project): the name is the last part.
const repoGlob = /^[^/\s]+(\/[^/\s]+)+$/;

/** `forge`: whose deliveries these settings read (default: the forge booty serves first). */
export function intakeConfig(env: Env, forge: 'github' | 'gitlab' = servedForge(env)): IntakeSettings {
  const gitlab = forge === 'gitlab';
  if (gitlab && !env.GITLAB_WEBHOOK_SECRET) {
    throw new BootyError('BOOTY_E_ENV_INVALID', {
      name: 'GITLAB_WEBHOOK_SECRET',
      reason: "is missing: set it to the secret token of your GitLab project's or group's webhook",
    });
  }
  if (!gitlab && !env.GITHUB_WEBHOOK_SECRET) {
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
  // GitHub treats owner and repository names case-insensitively, so the globs do too.
  const allowed = env.BOOTY_REPOS.length > 0 ? picomatch(env.BOOTY_REPOS, { nocase: true }) : () => true;
  return {
    triggerLabel: env.BOOTY_TRIGGER_LABEL,
    // Until the forge says otherwise (an App's own name, read at start).
    handle: () => env.BOOTY_HANDLE ?? 'booty',
    webhookPath: env.WEBHOOK_PATH,
    secrets: (gitlab
      ? [env.GITLAB_WEBHOOK_SECRET, env.GITLAB_WEBHOOK_SECRET_PREVIOUS]
      : [env.GITHUB_WEBHOOK_SECRET, env.GITHUB_WEBHOOK_SECRET_PREVIOUS]
    ).filter((s): s is string => s !== undefined),
    isAllowedRepo: (fullName) => allowed(fullName),
    isSelfRepo: (fullName) => isSelfRepo(env, fullName),
  };
}
