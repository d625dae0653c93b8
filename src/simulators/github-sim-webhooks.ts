import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { sign } from '@octokit/webhooks-methods';
import { issueJson, labelJson, repoJson, type Urls, userJson } from './github-sim-json.js';
import type { SimDelivery, SimIssue, SimRepo } from './github-sim-state.js';

// Webhook deliveries as GitHub sends them: the payload starts from GitHub's own example in
// @octokit/webhooks-examples with the repository, issue, label and sender filled in, signed with
// the shared secret, and carrying GitHub's headers. A failed delivery is retried a few times.

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as {
  name: string;
  examples: Record<string, any>[];
}[];

export type IssueAction = 'labeled' | 'unlabeled' | 'closed';

function example(action: IssueAction): Record<string, any> {
  const issues = examples.find((e) => e.name === 'issues')!.examples;
  // GitHub publishes no `closed` example: it is the labeled one without the label.
  const found = issues.find((e) => e.action === action) ?? issues.find((e) => e.action === 'labeled')!;
  return structuredClone(found);
}

export function issuePayload(
  u: Urls,
  input: {
    action: IssueAction;
    repo: SimRepo;
    issue: SimIssue;
    label?: string;
    sender: string;
    installationId: number | null;
  },
): Record<string, unknown> {
  const payload = example(input.action);
  payload.action = input.action;
  payload.issue = { ...payload.issue, ...issueJson(u, input.repo, input.issue) };
  payload.repository = { ...payload.repository, ...repoJson(u, input.repo) };
  payload.sender = { ...payload.sender, ...userJson(u, input.sender) };
  delete payload.organization;
  if (input.label) payload.label = labelJson(u, input.repo, input.label);
  else delete payload.label;
  if (input.installationId !== null) {
    payload.installation = { id: input.installationId, node_id: `MDIz${input.installationId}` };
  }
  return payload;
}

export interface WebhookTarget {
  url: string;
  secret: string;
  /** Deliveries tried per event before giving up; default 3. */
  attempts?: number;
  /** Pause before a retry, doubled each time; default 200 ms. */
  retryDelayMs?: number;
}

export function newDelivery(
  event: string,
  action: string | null,
  payload: Record<string, unknown>,
): SimDelivery {
  return {
    id: randomUUID(),
    event,
    action,
    payload: JSON.stringify(payload),
    attempts: 0,
    status: null,
    error: null,
    at: new Date().toISOString(),
  };
}

/** POSTs a delivery until it is accepted (2xx) or the attempts run out; the record is updated in place. */
export async function deliver(
  target: WebhookTarget,
  delivery: SimDelivery,
  hook: { id: number; app: boolean },
): Promise<SimDelivery> {
  const attempts = target.attempts ?? 3;
  const delay = target.retryDelayMs ?? 200;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, delay * 2 ** (i - 1)));
    delivery.attempts += 1;
    try {
      const res = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/simulator',
          'x-github-event': delivery.event,
          'x-github-delivery': delivery.id,
          'x-github-hook-id': String(hook.id),
          // An App's deliveries come from its integration hook, a repository webhook's from the repository.
          'x-github-hook-installation-target-type': hook.app ? 'integration' : 'repository',
          'x-github-hook-installation-target-id': String(hook.id),
          'x-hub-signature': `sha1=${createHmac('sha1', target.secret).update(delivery.payload).digest('hex')}`,
          'x-hub-signature-256': await sign(target.secret, delivery.payload),
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.status = res.status;
      delivery.error = res.ok ? null : `HTTP ${res.status}`;
      if (res.ok) return delivery;
    } catch (err) {
      delivery.status = null;
      delivery.error = (err as Error).message;
    }
  }
  return delivery;
}
