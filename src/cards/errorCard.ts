/**
 * Every failure becomes a Card a person understands. Market errors say what went wrong in the
 * words of a chat (not an address, not found, busy, unreachable, slow, key refused, unreadable);
 * usage errors say what to type; anything else says only that something went wrong, because an
 * unexpected error's message may carry file paths, hosts or secrets and helps no reader.
 */
import { scrubSecrets } from '../log';
import { SERVICE_ADDRESS_FORM } from '../market/address';
import { isMarketError, type MarketError, type MarketErrorKind } from '../market/errors';
import { isStoreUnavailable } from '../store/storeUnavailable';
import { ShareFullError, usageOf, UsageError } from '../usage';
import { code, field, rich, type Card, type CardAction, type CardField, type RichText } from './card';

export interface ErrorCardOptions {
  /** One more sentence from the caller on what to do next. */
  hint?: string;
  /** The id the log line of this failure carries, shown so that a person can quote it to the operator. */
  errorId?: string;
}

/** "12 s", "3 min": the wait rounded up, in minutes from two minutes on. */
export function waitText(ms: number): string {
  const secs = Math.max(1, Math.ceil(ms / 1000));
  return secs < 120 ? `${secs} s` : `${Math.ceil(secs / 60)} min`;
}

interface Explained {
  title: string;
  message: string;
}

/** Kinds whose own user message names the specific thing (token or wallet, which option). */
const SPECIFIC: ReadonlySet<MarketErrorKind> = new Set(['missing-parameter', 'invalid-address', 'invalid-parameter', 'not-found']);

function explainMarket(error: MarketError): Explained {
  const specific = SPECIFIC.has(error.kind) ? scrubSecrets(error.userMessage) : '';
  switch (error.kind) {
    case 'invalid-address':
      return {
        title: 'Not an address',
        message:
          `${specific || 'That is not a token address.'} Paste the whole address: ` + `TokenWatch reads ${SERVICE_ADDRESS_FORM} addresses.`,
      };
    case 'missing-parameter':
      return { title: 'Something is missing', message: specific || 'Something required is missing from that request.' };
    case 'invalid-parameter':
      return { title: 'Invalid option', message: specific || 'One of the options of that request is not valid.' };
    case 'not-found':
      return { title: 'Not found', message: specific || 'The market data service found nothing at that address.' };
    case 'rate-limited':
      if (error.details.source === 'client-limiter') return botLimitSpent(error);
      return {
        title: 'Service busy',
        message:
          `The market data service is busy; try again ` + `in ${error.retryAfterMs === null ? 'a moment' : waitText(error.retryAfterMs)}.`,
      };
    case 'unreachable':
      return { title: 'Service unreachable', message: 'The market data service cannot be reached right now; try again later.' };
    case 'timeout':
      return { title: 'Service too slow', message: 'The market data service took too long to answer; try again in a moment.' };
    case 'unauthorized':
      return {
        title: 'API key refused',
        message: 'The market data service refused the bot’s API key. The bot’s operator must check TMDS_API_KEY.',
      };
    case 'upstream':
      return { title: 'Service error', message: 'The market data service failed to answer; try again in a moment.' };
    case 'unreadable':
      return { title: 'Unreadable answer', message: 'The market data service sent an answer the bot could not read; try again later.' };
  }
}

/**
 * The bot's own request budget for an endpoint is spent (TMDS_RATE_LIMITS, every chat together):
 * the bot's limit, said as such, with when it frees up. The service is not busy, and is not blamed.
 */
function botLimitSpent(error: MarketError): Explained {
  const { limit, windowMs } = error.details;
  const wait = error.retryAfterMs === null ? 'in a moment' : `in ${waitText(error.retryAfterMs)}`;
  const budget =
    typeof limit === 'number' && typeof windowMs === 'number'
      ? `at most ${limit} ${limit === 1 ? 'time' : 'times'} ${windowMs === 60_000 ? 'a minute' : `every ${waitText(windowMs)}`}`
      : 'only so often';
  return {
    title: 'The bot is at its limit',
    message: `The bot asks for this ${budget}, for every chat together, and that is spent for now. The next one frees up ${wait}.`,
  };
}

function describe(message: string, hint: string | undefined): RichText {
  return hint === undefined || hint.trim() === '' ? rich(message) : rich(message, '\n', hint);
}

/**
 * A usage mistake: the title names the command and the problem ("/track: threshold must be between
 * 1 and 1000, not "5000""), the description what to type instead, a field the usage. The
 * Dispatcher gives it no error id: an id is for failures to look up in the log, and a mistyped
 * option has nothing there to find.
 */
function usageCard(error: UsageError, hint: string | undefined): Card {
  const command = error.command;
  const fields: CardField[] = [];
  const actions: CardAction[] = [{ label: 'Help', command: 'help', args: command === null ? [] : [command.name] }];
  if (command !== null) fields.push(field('Usage', code(usageOf(command))));
  const problem = scrubSecrets(error.problem).replace(/\.$/, '');
  const advice = [
    scrubSecrets(error.advice),
    hint ?? (command === null ? '' : `Type /help ${command.name} for its options and an example.`),
  ].filter((part) => part.trim() !== '');
  return {
    title: command === null ? problem : `/${command.name}: ${problem}`,
    ...(advice.length === 0 ? {} : { description: rich(advice.join('\n')) }),
    color: 'error',
    fields,
    actions,
  };
}

export function cardForError(error: unknown, options: ErrorCardOptions = {}): Card {
  const card = explain(error, options.hint);
  return options.errorId === undefined ? card : { ...card, footer: `Error id ${options.errorId}` };
}

function explain(error: unknown, hint: string | undefined): Card {
  if (error instanceof ShareFullError)
    return { title: error.title, description: describe(error.explanation, hint), color: 'error', fields: [], actions: [] };
  if (error instanceof UsageError) return usageCard(error, hint);
  if (isMarketError(error)) {
    const { title, message } = explainMarket(error);
    return { title, description: describe(message, hint), color: 'error', fields: [], actions: [] };
  }
  // The bot's own database is away for a moment (a PostgreSQL restart) or its disk is full: nothing the person did, nothing to report.
  if (isStoreUnavailable(error)) {
    const why =
      error.reason === 'full'
        ? 'The bot’s database has no room to write right now; try again later.'
        : 'The bot’s database cannot be reached right now; try again in a moment.';
    return {
      title: 'Try again in a moment',
      description: describe(why, hint),
      color: 'error',
      fields: [],
      actions: [],
    };
  }
  // A caller's hint says what to do better than the generic advice, so it takes its place.
  const advice = hint?.trim() || 'Try again; if it keeps happening, tell the bot’s operator.';
  return {
    title: 'Something went wrong',
    description: rich('The bot could not answer that.', '\n', advice),
    color: 'error',
    fields: [],
    actions: [],
  };
}
