import { repoJson, type Urls, userJson } from './github-sim-json.js';
import { RECENT_DELIVERIES, type SimDelivery, type SimRepo, type SimStore } from './github-sim-state.js';
import { deliver, newDelivery, payloadFrom, type WebhookTarget } from './github-sim-webhooks.js';

// The one place the simulator sends webhooks from. Whatever changes state (a REST call, a GraphQL
// mutation, a push, a test acting as a person, the scripted CI) emits here; deliveries go out one
// after another in the order of the changes, after the request that caused them has been answered,
// as GitHub's are. Tests wait for them with `settled()`.

/** Work the simulator does after a reply; a failure is kept for the tests to see, never thrown. */

export class Background {
  private readonly pending = new Set<Promise<unknown>>();
  readonly failures: string[] = [];

  run<T>(what: string, work: () => Promise<T>): Promise<T | null> {
    const p = work().catch((err: unknown) => {
      this.failures.push(`${what}: ${(err as Error).message}`);
      return null;
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }

  /** Resolves when no work is left, including work started by work that finished meanwhile. */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}

export interface HookInput {
  repo: SimRepo;
  event: string;
  action: string | null;
  /** Who did it: the payload's sender. */
  sender: string;
  /** The payload's own fields (issue, pull_request, review...); undefined drops the example's. */
  fields: Record<string, unknown>;
}

export class HookBus {
  target: WebhookTarget | null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly store: SimStore,
    private readonly urls: Urls,
    private readonly background: Background,
    target: WebhookTarget | null,
  ) {
    this.target = target;
  }

  /** Records the delivery and queues it; resolves with it once tried, or null when nobody subscribed. */
  emit(input: HookInput): Promise<SimDelivery | null> {
    const installationId = this.installationFor(input.repo.owner);
    if (!this.subscribed(input.event, installationId)) return Promise.resolve(null);
    const payload = payloadFrom(input.event, input.action, {
      ...input.fields,
      repository: repoJson(this.urls, input.repo),
      sender: userJson(this.urls, input.sender),
    });
    if (installationId !== null) {
      payload.installation = { id: installationId, node_id: `MDIz${installationId}` };
    }
    const delivery = newDelivery(input.event, input.action, payload);
    const { deliveries } = this.store.state;
    deliveries.push(delivery);
    // The newest only, as GitHub's recent deliveries.
    if (deliveries.length > RECENT_DELIVERIES) deliveries.splice(0, deliveries.length - RECENT_DELIVERIES);
    this.store.save();
    return this.send(delivery, { id: input.repo.id, app: installationId !== null }, false);
  }

  /** Sends a stored delivery again, with the same delivery id, as GitHub's redeliver does. */
  redeliver(delivery: SimDelivery): Promise<SimDelivery | null> {
    const sent = JSON.parse(delivery.payload) as { repository?: { id?: number }; installation?: unknown };
    return this.send(delivery, { id: sent.repository?.id ?? 1, app: sent.installation !== undefined }, true);
  }

  close() {
    this.closed = true;
  }

  private send(
    delivery: SimDelivery,
    hook: { id: number; app: boolean },
    redelivery: boolean,
  ): Promise<SimDelivery | null> {
    const sent = this.queue.then(async () => {
      const target = this.target;
      if (!target || this.closed) return delivery;
      const kind = { redelivery, nextId: () => this.store.nextId() };
      // A redelivery is one POST, as GitHub makes it: it is not tried again.
      await deliver(
        redelivery ? { ...target, attempts: 1 } : target,
        delivery,
        hook,
        kind,
        () => this.closed,
      );
      if (!this.closed) this.store.save();
      return delivery;
    });
    this.queue = sent.catch(() => undefined);
    return this.background.run(`delivering ${delivery.event}`, () => sent);
  }

  private installationFor(owner: string): number | null {
    return (
      this.store.state.apps
        .flatMap((a) => a.installations)
        .find((i) => i.account.toLowerCase() === owner.toLowerCase())?.id ?? null
    );
  }

  /** GitHub sends an event only to hooks subscribed to it: the webhook's list and the App's. */
  private subscribed(event: string, installationId: number | null): boolean {
    const listed = this.target?.events;
    if (listed && !listed.includes(event) && !listed.includes('*')) return false;
    const app = this.store.state.apps.find((a) => a.installations.some((i) => i.id === installationId));
    return !app?.events || app.events.includes(event);
  }
}
