import type { RepoRef } from '../../events/job-events.js';
import type { ConversationIntent, Intent, JobTarget, WakeIntent } from '../forge.js';

// The shapes GitLab's hooks are classified into, shared by the classifiers.

export interface Classified {
  /** GitLab's `object_attributes.action`, or a CI status: what the deliveries table records. */
  action: string | null;
  intent: Exclude<Intent, { kind: 'wake' }> | ConversationIntent;
}

/** `group/sub/project` as a repository on GitLab: the namespace, and the project's own path. */
export function repoOfPath(path: string): RepoRef {
  const cut = path.lastIndexOf('/');
  return { forge: 'gitlab', owner: path.slice(0, cut), name: path.slice(cut + 1) };
}

/** A wake-up that asks GitLab nothing first. */
export function wake(
  action: string | null,
  repo: RepoRef,
  target: JobTarget,
  event: WakeIntent['event'],
  needs: Partial<ConversationIntent['needs']> = {},
): Classified {
  return {
    action,
    intent: {
      kind: 'wake',
      repo,
      target,
      event,
      needs: { writer: null, installationId: null, reviewComments: null, react: null, ...needs },
    },
  };
}
