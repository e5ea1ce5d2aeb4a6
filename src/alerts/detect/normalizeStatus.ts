/**
 * A risk status as detectors compare it: without case or surrounding blanks; blank is unknown.
 * Its own module, so that the risk status and risk flag detectors can both use it without
 * importing each other.
 */
export function normalizeStatus(status: string | null): string | null {
  if (status === null) return null;
  const trimmed = status.trim().toUpperCase();
  return trimmed === '' ? null : trimmed;
}
