/** The types of `unicode-confusables` (UTS #39's confusables.txt as a skeleton map); its own are in a file TypeScript does not find. */
declare module 'unicode-confusables' {
  /** Each character replaced by its UTS #39 prototype, zero-width characters removed. */
  export function rectifyConfusion(input: string): string;
}
