import type Database from 'better-sqlite3';
import type { DeliveryLog } from '../delivery-log.js';
import type { DeliveryRecord } from '../records.js';
import type { WriteGuard } from '../write-guard.js';

// The delivery log in SQLite's `deliveries` table, and the catch-up's turn in `delivery_look`'s
// one row. The store's append records its delivery inside its own transaction (record).

export class SqliteDeliveryLog implements DeliveryLog {
  private readonly db: Database.Database;
  private readonly guard: WriteGuard;
  private readonly stmt;
  /** Records a batch in one transaction; made once, as better-sqlite3 builds a wrapper per call. */
  private readonly recordAll: Database.Transaction<(deliveries: DeliveryRecord[]) => boolean[]>;

  constructor(db: Database.Database, guard: WriteGuard) {
    this.db = db;
    this.guard = guard;
    this.stmt = {
      record: db.prepare(`
        INSERT OR IGNORE INTO deliveries (delivery_id, event, action, outcome, job_id, received_at)
        VALUES (@deliveryId, @event, @action, @outcome, @jobId, @at)`),
      known: db.prepare('SELECT 1 FROM deliveries WHERE delivery_id = ?').pluck(),
      look: db.prepare('SELECT taken_at AS takenAt, last_look AS lastLook FROM delivery_look'),
      takeLook: db.prepare(
        'INSERT INTO delivery_look (one, taken_at) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET taken_at = excluded.taken_at',
      ),
      finishLook: db.prepare(`
        INSERT INTO delivery_look (one, taken_at, last_look) VALUES (1, @at, @at)
        ON CONFLICT (one) DO UPDATE SET last_look = max(COALESCE(last_look, 0), excluded.last_look)`),
    };
    this.recordAll = db.transaction((deliveries: DeliveryRecord[]) => deliveries.map((d) => this.record(d)));
  }

  /** Records a delivery, in the caller's transaction; false when it was recorded before. */
  record(delivery: DeliveryRecord): boolean {
    return this.stmt.record.run({ ...delivery, at: Date.now() }).changes === 1;
  }

  async recordDeliveries(deliveries: DeliveryRecord[]): Promise<boolean[]> {
    this.guard.check();
    if (deliveries.length === 0) return [];
    return this.recordAll.immediate(deliveries);
  }

  async unknownDeliveries(deliveryIds: string[]): Promise<string[]> {
    this.guard.check();
    return [...new Set(deliveryIds)].filter((id) => this.stmt.known.get(id) === undefined);
  }

  async takeDeliveryLook(now: number, gapMs: number): Promise<{ lastLook: number | null } | null> {
    this.guard.check();
    return this.db
      .transaction(() => {
        const row = this.stmt.look.get() as { takenAt: number; lastLook: number | null } | undefined;
        if (row && gapMs > 0 && row.takenAt > now - gapMs) return null;
        this.stmt.takeLook.run(now);
        return { lastLook: row?.lastLook ?? null };
      })
      .immediate();
  }

  async finishDeliveryLook(mark: number): Promise<void> {
    this.guard.check();
    this.stmt.finishLook.run({ at: mark });
  }
}
