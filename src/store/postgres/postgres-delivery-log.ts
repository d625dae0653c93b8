import type { Pool } from 'pg';
import type { DeliveryLog } from '../delivery-log.js';
import type { DeliveryRecord } from '../records.js';
import { statement } from './queries.js';

// The delivery log in PostgreSQL's `deliveries` table, and the catch-up's turn in `delivery_look`'s
// one row. booty_append (migrations/001-init.sql) records an append's delivery in its transaction.

const q = {
  // In key order, so two batches sharing keys take their row locks in the same order.
  recordDeliveries: statement(
    'record-deliveries',
    `INSERT INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
     SELECT d.*, $6::bigint
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS d(delivery_id, event, action, outcome, job_id)
     ORDER BY d.delivery_id
     ON CONFLICT (delivery_id) DO NOTHING RETURNING delivery_id`,
  ),
  unknownDeliveries: statement(
    'unknown-deliveries',
    `SELECT d.id FROM unnest($1::text[]) WITH ORDINALITY AS d(id, n)
     WHERE NOT EXISTS (SELECT 1 FROM deliveries WHERE delivery_id = d.id) ORDER BY d.n`,
  ),
  // The row's lock makes the take one at a time: a worker that finds it taken within the gap
  // updates nothing and gets no row back.
  takeDeliveryLook: statement(
    'take-delivery-look',
    `INSERT INTO delivery_look (one, taken_at) VALUES (true, $1)
     ON CONFLICT (one) DO UPDATE SET taken_at = excluded.taken_at
     WHERE $2::bigint = 0 OR delivery_look.taken_at <= $1::bigint - $2::bigint
     RETURNING last_look`,
  ),
  finishDeliveryLook: statement(
    'finish-delivery-look',
    `INSERT INTO delivery_look (one, taken_at, last_look) VALUES (true, $1, $1)
     ON CONFLICT (one) DO UPDATE SET last_look = GREATEST(delivery_look.last_look, excluded.last_look)`,
  ),
};

export class PostgresDeliveryLog implements DeliveryLog {
  /** The store's pool, once it is open; rejects once the store is closed. */
  private readonly db: () => Promise<Pool>;

  constructor(db: () => Promise<Pool>) {
    this.db = db;
  }

  async recordDeliveries(deliveries: DeliveryRecord[]): Promise<boolean[]> {
    if (deliveries.length === 0) return [];
    const { rows } = await (await this.db()).query<{ delivery_id: string }>({
      ...q.recordDeliveries,
      values: [
        deliveries.map((d) => d.deliveryId),
        deliveries.map((d) => d.event),
        deliveries.map((d) => d.action),
        deliveries.map((d) => d.outcome),
        deliveries.map((d) => d.jobId),
        Date.now(),
      ],
    });
    // A delivery named twice in one batch is new the first time only.
    const fresh = new Set(rows.map((r) => r.delivery_id));
    return deliveries.map((d) => fresh.delete(d.deliveryId));
  }

  async unknownDeliveries(deliveryIds: string[]): Promise<string[]> {
    if (deliveryIds.length === 0) return [];
    const { rows } = await (await this.db()).query<{ id: string }>({
      ...q.unknownDeliveries,
      values: [[...new Set(deliveryIds)]],
    });
    return rows.map((r) => r.id);
  }

  async takeDeliveryLook(now: number, gapMs: number): Promise<{ lastLook: number | null } | null> {
    const { rows } = await (await this.db()).query<{ last_look: string | null }>({
      ...q.takeDeliveryLook,
      values: [now, gapMs],
    });
    if (!rows[0]) return null;
    return { lastLook: rows[0].last_look === null ? null : Number(rows[0].last_look) };
  }

  async finishDeliveryLook(mark: number): Promise<void> {
    await (await this.db()).query({ ...q.finishDeliveryLook, values: [mark] });
  }
}
