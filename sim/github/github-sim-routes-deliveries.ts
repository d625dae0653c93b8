import type { OperationId } from './github-sim-operations.js';
import { type Handler, message, notFound, type RouteContext } from './github-sim-route-kit.js';
import type { SimDelivery, SimDeliveryTry } from './github-sim-state.js';

// The App webhook's deliveries, as GitHub's delivery API shows them: one item per POST to the
// hook (a delivery tried twice is two items sharing its GUID), newest first, paged by an opaque
// cursor in the Link header; and a redelivery, which POSTs the same payload under the same GUID
// again, after the 202. Only an App, with its JWT, sees its own hook's deliveries.

interface Attempt {
  delivery: SimDelivery;
  attempt: SimDeliveryTry;
}

/** The App's deliveries' attempts, newest first: those carrying one of its installations. */
function attemptsOf(ctx: RouteContext): Attempt[] {
  if (ctx.caller.kind !== 'app') return [];
  const installations = new Set(ctx.caller.app.installations.map((i) => i.id));
  return ctx.store.state.deliveries
    .filter((d) => installations.has(installationOf(d) ?? -1))
    .flatMap((delivery) => delivery.tries.map((attempt) => ({ delivery, attempt })))
    .sort((a, b) => b.attempt.id - a.attempt.id);
}

function installationOf(d: SimDelivery): number | null {
  return (JSON.parse(d.payload) as { installation?: { id?: number } }).installation?.id ?? null;
}

function repositoryOf(d: SimDelivery): number | null {
  return (JSON.parse(d.payload) as { repository?: { id?: number } }).repository?.id ?? null;
}

/** hook-delivery-item. */
const itemJson = ({ delivery, attempt }: Attempt) => ({
  id: attempt.id,
  guid: delivery.id,
  delivered_at: attempt.at,
  redelivery: attempt.redelivery,
  duration: attempt.durationMs / 1000,
  status: attempt.status,
  status_code: attempt.statusCode,
  event: delivery.event,
  action: delivery.action,
  installation_id: installationOf(delivery),
  repository_id: repositoryOf(delivery),
  throttled_at: null,
});

// GitHub's cursor is opaque; here it names the newest attempt of the page it starts.
const CURSOR = /^v1_(\d+)$/;

export const deliveryHandlers = {
  'apps/list-webhook-deliveries': (ctx) => {
    const perPage = Math.min(Number(ctx.query.per_page ?? 30), 100);
    const cursor = ctx.query.cursor === undefined ? null : CURSOR.exec(String(ctx.query.cursor));
    if (ctx.query.cursor !== undefined && !cursor)
      return message(400, 'Bad request: the cursor is not one this API gave', ctx.documentationUrl);
    // `status` goes by the status code's range, so an attempt that got no response (0) is neither.
    const wanted = ctx.query.status as 'success' | 'failure' | undefined;
    const all = attemptsOf(ctx).filter(
      ({ attempt: a }) =>
        (!cursor || a.id <= Number(cursor[1])) &&
        (wanted !== 'success' || (a.statusCode >= 200 && a.statusCode < 400)) &&
        (wanted !== 'failure' || (a.statusCode >= 400 && a.statusCode < 600)),
    );
    const page = all.slice(0, perPage);
    const next = all[perPage];
    const headers: Record<string, string> = {};
    if (next) {
      const u = new URL(ctx.url.href);
      u.searchParams.set('per_page', String(perPage));
      u.searchParams.set('cursor', `v1_${next.attempt.id}`);
      headers.link = `<${ctx.urls.base}${u.pathname}${u.search}>; rel="next"`;
    }
    return { status: 200, body: page.map(itemJson), headers };
  },

  'apps/redeliver-webhook-delivery': (ctx) => {
    const found = attemptsOf(ctx).find((a) => a.attempt.id === ctx.path.delivery_id);
    if (!found) return notFound(ctx);
    if (!ctx.world.hooks.target) return message(422, 'The webhook has no URL', ctx.documentationUrl);
    void ctx.world.hooks.redeliver(found.delivery);
    return { status: 202, body: {} };
  },
} satisfies Partial<Record<OperationId, Handler>>;
