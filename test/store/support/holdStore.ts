/**
 * A TokenWatch stand-in for the lock tests: opens the store at the path given, says "open", and
 * holds it until killed. Usage: node --import tsx test/store/support/holdStore.ts PATH
 */
import { openSqliteStore } from '../../../src/store/sqliteStore';

openSqliteStore(process.argv[2] ?? '');
process.stdout.write('open\n');
setInterval(() => undefined, 60_000);
