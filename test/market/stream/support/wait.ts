/**
 * Waiting helpers: a test waits for the condition it needs, with a deadline that only bounds the
 * wait, never for a guessed time. There is deliberately no sleep to import: a check that nothing
 * happened first waits for a sign that the thing which would have caused it was handled.
 */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(10);
  }
}

/** Between two looks at a condition: lets sockets, timers and other work run. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Open timers of the process, to show that a closed client leaves none behind. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
}
