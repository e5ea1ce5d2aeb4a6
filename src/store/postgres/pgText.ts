/**
 * PostgreSQL's text cannot hold U+0000, which SQLite keeps: a NUL in a label a chat user typed, or
 * in a platform's error text, would fail the whole write. Free text is written with each NUL
 * replaced by U+FFFD, the replacement character, and otherwise as given.
 */
export function pgText(text: string): string;
export function pgText(text: string | null): string | null;
export function pgText(text: string | null): string | null {
  return text === null || !text.includes('\u0000') ? text : text.replaceAll('\u0000', '\uFFFD');
}
