import type { DeliveryRecord } from './records.js';

// The webhook deliveries booty has taken, by GitHub's GUID: a delivery is acted on once however
// often it comes. One that causes events is recorded by their append (EventLog.append's
// `delivery`), in the same commit; one that starts nothing is recorded here. Beside them, the turn
// to catch up on deliveries GitHub sent while no booty listened (intake/delivery-catch-up.ts).

export interface DeliveryLog {
  /** Records deliveries that start nothing, in one commit; for each, false when it was seen before. */
  recordDeliveries(deliveries: DeliveryRecord[]): Promise<boolean[]>;
  /** Of these delivery ids (GitHub's GUIDs), the ones never recorded, in the order given, once each. */
  unknownDeliveries(deliveryIds: string[]): Promise<string[]>;
  /**
   * The catch-up of missed webhook deliveries, shared by every worker on the database: takes the
   * turn to look when nobody took it in the `gapMs` before `now` (0: take it anyway), answering
   * the mark the last finished look left (null: never); null when another took it.
   */
  takeDeliveryLook(now: number, gapMs: number): Promise<{ lastLook: number | null } | null>;
  /**
   * A look went through, having listed deliveries up to `mark` (GitHub's time, epoch ms): the next
   * one goes back to it, not further. The mark never moves back.
   */
  finishDeliveryLook(mark: number): Promise<void>;
}
