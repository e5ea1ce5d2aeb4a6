/**
 * A bench phase run in a child process of its own (so that its memory is its own): the result goes
 * to the parent as `{ type: 'result', result }`, and a failure to standard error with exit code 1.
 */
export function runChildPhase<T>(name: string, run: () => Promise<T>): void {
  run().then(
    (result) => {
      process.send?.({ type: 'result', result });
      process.disconnect?.();
    },
    (error: unknown) => {
      process.stderr.write(`${name} phase failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
