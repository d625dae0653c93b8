import { z } from 'zod';
import { hasPlanLabel } from '../conventions.js';
import type { ConversationIntent, IntakeConfig, Intent } from '../forge.js';
import { invalid, parse } from '../payload.js';
import { classifyConversation, isConversationEvent } from './classify-conversation.js';

// Turns a verified delivery into what the supervisor should do with it. Pure: the event name, the
// payload and the config in, an Intent out. Only the parts of the payload read here are validated,
// so GitHub adding fields never breaks a delivery.

const Account = z.object({ login: z.string().min(1) });

const IssuesPayload = z.object({
  action: z.string().min(1),
  issue: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    body: z.string().nullish(),
    html_url: z.string().min(1),
    state: z.string().optional(),
    labels: z.array(z.object({ name: z.string() })).nullish(),
  }),
  repository: z.object({ name: z.string().min(1), owner: Account }),
  sender: Account,
  label: z.object({ name: z.string().min(1) }).optional(),
  installation: z.object({ id: z.number().int() }).nullish(),
});

/** Every other event only has to be an object; its action, when present, is recorded. */
const AnyPayload = z.object({ action: z.string().optional() });

export interface Classified {
  action: string | null;
  intent: Exclude<Intent, { kind: 'wake' }> | ConversationIntent;
}

export function classifyDelivery(event: string, payload: unknown, config: IntakeConfig): Classified {
  if (isConversationEvent(event)) return classifyConversation(event, payload, config);
  if (event === 'pull_request_review_comment') {
    return {
      action: parse(AnyPayload, event, payload).action ?? null,
      intent: {
        kind: 'ignore',
        reason: 'a review comment is answered with its review (pull_request_review)',
      },
    };
  }
  if (event !== 'issues') {
    return {
      action: parse(AnyPayload, event, payload).action ?? null,
      intent: { kind: 'ignore', reason: `event ${event} starts nothing` },
    };
  }
  const p = parse(IssuesPayload, event, payload);
  const ignore = (reason: string): Classified => ({ action: p.action, intent: { kind: 'ignore', reason } });
  const repo = { forge: 'github' as const, owner: p.repository.owner.login, name: p.repository.name };
  // Label names are unique regardless of case within a repository, so compare them that way.
  const isTrigger = p.label?.name.toLowerCase() === config.triggerLabel.toLowerCase();
  const cancel = (reason: 'unlabeled' | 'closed'): Classified => ({
    action: p.action,
    intent: { kind: 'cancel', repo, issue: p.issue.number, reason, sender: p.sender.login },
  });

  switch (p.action) {
    case 'labeled': {
      if (!p.label) throw invalid(event, 'label: required for action labeled');
      if (!isTrigger) return ignore(`label ${p.label.name} is not the trigger label`);
      if (!config.isAllowedRepo(`${repo.owner}/${repo.name}`))
        return ignore(`repository ${repo.owner}/${repo.name} is not allowed by BOOTY_REPOS`);
      if (p.issue.state === 'closed') return ignore('the issue is closed');
      return {
        action: p.action,
        intent: {
          kind: 'request',
          request: {
            repo,
            issue: {
              number: p.issue.number,
              title: p.issue.title,
              body: p.issue.body ?? '',
              url: p.issue.html_url,
            },
            triggerLabel: p.label.name,
            sender: p.sender.login,
            installationId: p.installation?.id ?? null,
            ...(hasPlanLabel((p.issue.labels ?? []).map((l) => l.name)) ? { planApproval: true } : {}),
          },
        },
      };
    }
    case 'unlabeled':
      // Cancels are not filtered by BOOTY_REPOS: a job started before the list changed still stops.
      return isTrigger ? cancel('unlabeled') : ignore('the removed label is not the trigger label');
    case 'closed':
      return cancel('closed');
    default:
      return ignore(`issues.${p.action} starts nothing`);
  }
}
