/** What a bench section gives back (bench/run.ts prints it): one row per figure. */
export interface Row {
  what: string;
  figure: string;
}

/**
 * A part of the bench: its rows for the printed table; figures for bench/results.json go through
 * recordResult. `npm run bench -- NAME…` runs only the sections named.
 */
export type Section = () => Promise<Row[]>;
