/**
 * Failures in a body of their own, read. Telegram explains a failure in `error_code` and
 * `description`, and grammY reads only those; a server in front of it or in its place (a proxy, a
 * gateway, a local Bot API that lacks a method) may answer `{"message": "…"}` or `{"error": "…"}`
 * instead, which grammY turns into an error of "undefined: undefined" and a log line with no reason
 * in it. This API transformer gives such an answer a description from what its body does say.
 */
import type { Transformer } from 'grammy';
import { z } from 'zod';
import { stripUnsafeChars } from '../../text/unsafe';

/** Enough of a reason for a log line; the rest of a long body is noise. */
const MAX_DESCRIPTION = 200;

const FailureBodySchema = z.object({
  description: z.string().optional(),
  message: z.string().optional(),
  error: z.string().optional(),
});

/** What a failed answer says about itself, cleaned and cut; the body's shape is the server's own. */
export function describeFailure(body: unknown): string {
  const parsed = FailureBodySchema.safeParse(body);
  const said = parsed.success
    ? [parsed.data.description, parsed.data.message, parsed.data.error].find((text) => text !== undefined && text.trim() !== '')
    : undefined;
  if (said === undefined) return 'the Bot API server answered a failure without saying why';
  return stripUnsafeChars(said).trim().slice(0, MAX_DESCRIPTION);
}

/** True for a failed answer that has no description of its own. */
function undescribed(body: unknown): boolean {
  const parsed = FailureBodySchema.safeParse(body);
  return !parsed.success || parsed.data.description === undefined;
}

export const describeFailures: Transformer = async (prev, method, payload, signal) => {
  const answer = await prev(method, payload, signal);
  // Typed as Telegram's answer, but it is whatever the server sent.
  const body: unknown = answer;
  if (answer.ok === true || !undescribed(body)) return answer;
  return { ...answer, description: describeFailure(body) };
};
