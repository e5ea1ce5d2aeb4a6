/** The market the store was made on: SQLite's migration 6, in PostgreSQL's types. */
export const sql = `
CREATE TABLE store_market (
  one         boolean PRIMARY KEY DEFAULT true CHECK (one),
  market      text    NOT NULL,
  recorded_at bigint  NOT NULL
);
`;
