/**
 * Passwords holding the characters an address reserves, alone and together, and what of each must
 * never be printed: the password as written and percent-encoded, and every piece of it between
 * reserved characters that is long enough to recognise.
 */

/** The characters that end or split a URL's credentials when written unencoded. */
export const RESERVED = ['@', '/', '#', '?', ':', '%', ' '] as const;

/** One password per reserved character, then combinations, and reserved characters at either end. */
export const SECRET_PASSWORDS: readonly string[] = [
  ...RESERVED.map((char) => `Xq7v${char}Zr9wKp2m`),
  'Xq7v@/#?Zr9wKp2m',
  'Xq7v:%@ Zr9w?Kp2m#Lt5n',
  '@Xq7vZr9wKp2m@',
  'Xq7v%40Zr9w%2FKp2m',
  'Xq7v//Zr9wKp2m@@Lt5n',
  'Xq7v?pw=Zr9w&Kp2m',
];

/** The texts of `password` that must appear nowhere. */
export function fragmentsOf(password: string): string[] {
  const pieces = password.split(/%[0-9a-f]{2}|[^a-z0-9]+/i).filter((piece) => piece.length >= 4);
  return [...new Set([password, encodeURIComponent(password), ...pieces])];
}

/** The fragments of `password` found in `text`. */
export function leakedFragments(password: string, text: string): string[] {
  return fragmentsOf(password).filter((fragment) => text.includes(fragment));
}
