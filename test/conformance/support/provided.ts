/** What the conformance global setup hands to every test file (vitest's provide/inject). */
import type { ListedToken } from './simulatorProcess';

export interface SharedSimulator {
  baseUrl: string;
  apiKey: string;
  tokens: ListedToken[];
  wallets: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Undefined when the suite runs against an external server (CONFORMANCE_BASE_URL). */
    conformanceSimulator: SharedSimulator | undefined;
  }
}
