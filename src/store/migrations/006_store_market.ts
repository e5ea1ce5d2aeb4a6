/**
 * The market the store was made on (src/store/storeMarket.ts): one row, the service's address or
 * the built-in simulator and its seed. Last-seen prices and states only mean something on the
 * market that produced them, so a start on another market is refused instead of comparing them.
 */
export const sql = `
CREATE TABLE store_market (
  one         INTEGER PRIMARY KEY CHECK (one = 1),
  market      TEXT    NOT NULL,
  recorded_at INTEGER NOT NULL
);
`;
