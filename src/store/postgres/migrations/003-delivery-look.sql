-- The catch-up of missed webhook deliveries (gateway/delivery-catch-up.ts): one row shared by the
-- workers, saying when the last look began and when one was last taken, so that of the workers on
-- one database about one a period asks GitHub, and a restarted worker looks back only that far.

CREATE TABLE delivery_look (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  taken_at bigint NOT NULL,
  last_look bigint
);
