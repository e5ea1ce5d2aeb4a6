/**
 * The V8 old-generation cap the bot runs with (`npm start`, `npm run start:dist`, the bench).
 *
 * Without a cap, V8 sizes the old generation from the machine's memory (about 4 GB on a 24 GB
 * host) and lets garbage pile up to several times the live heap before a full collection: under
 * the biggest hostile answers the caps allow, the live heap stayed under 100 MB while the heap
 * reached 360 MB before it was collected, and the process peaked at 536–634 MB. With 512 MB the
 * collector runs sooner and the same run peaks at 285–366 MB, every call ending as before. The
 * bot's own live heap at 10,000 followed tokens and 100,000 follows is about 70 MB, a seventh of
 * the cap. To run with another cap, start `node --max-old-space-size=N dist/src/main.js` yourself.
 *
 * package.json's scripts write the flag out (npm cannot import it); test/heapLimit.test.ts holds
 * them to this value.
 */
export const HEAP_LIMIT_MB = 512;

export const HEAP_LIMIT_FLAG = `--max-old-space-size=${HEAP_LIMIT_MB}`;
