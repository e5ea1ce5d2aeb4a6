/**
 * The replay's REST side: token-data, wallet-tracker and holders-history as the vendor's pages, the
 * spec (§4.1, §4.3, §4.6, §7) and the recordings show them. Every other path is a 404.
 *
 * - `x-api-key` is required (401 when missing or wrong; the body is our choice), except on
 *   holders-history and chart-history, which the vendor's own examples call without a key: there a
 *   missing key is accepted (a wrong one is still refused).
 * - token-data: `address=A` or `addresses=A,B,C` (both: the union, our choice) →
 *   `{"statusCode":200,"message":null,"data":{...}}` as recorded (`message` is null in every recording);
 *   unknown tokens are left out. Neither parameter: 400 `{error, message}` (§7). An address that is
 *   not base58 of 32–44 characters: 400 (status not shown; our choice).
 * - wallet-tracker: `wallets=W1,W2` → `{"tradeHistory":[...],"tokensMetadata":{...}}`, the trades of
 *   those wallets newest first, metadata keyed by token address for the tokens the replay holds.
 * - holders-history: `address=T` → a JSON array of §2.6 records; by balance (largest first) unless
 *   `sortBy` names another order, which keeps the order they were set in. An unknown token: `[]`.
 * - Failures set with failNext answer before anything else (after the 404 of an unknown path).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SpecHolder, SpecTrade } from './records';
import { tokenMetadataOf, type VendorToken } from './tokens';
import { isSolanaAddress, type JsonObject } from './wire';

export interface SeenRequest {
  path: string;
  query: Record<string, string>;
  /** The `x-api-key` header as sent, or null when absent. */
  apiKeyHeader: string | null;
}

export interface Failure {
  status: 429 | 500 | 502 | 503;
  /** Sent as Retry-After (seconds); on a 429 default 1. */
  retryAfterSec?: number;
  /** Only requests to this path (e.g. `/api/token-data`) meet the failure; default every path. */
  path?: string;
}

export interface RestState {
  apiKey: string;
  tokens: Map<string, VendorToken>;
  walletTrades: Map<string, SpecTrade[]>;
  holders: Map<string, SpecHolder[]>;
  failures: Array<Failure & { remaining: number }>;
  requests: SeenRequest[];
}

const ENDPOINTS = new Set(['/api/token-data', '/api/wallet-tracker', '/api/holders-history']);
/** The vendor's examples of these send no key. */
const KEY_OPTIONAL = new Set(['/api/holders-history', '/api/chart-history']);

export function handleRest(state: RestState, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const header = request.headers['x-api-key'];
  const apiKeyHeader = typeof header === 'string' ? header : null;
  state.requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), apiKeyHeader });
  if (request.method !== 'GET' || !ENDPOINTS.has(url.pathname)) return send(response, 404, JSON.stringify({ error: 'Not Found' }));
  const failure = takeFailure(state, url.pathname);
  if (failure) return fail(response, failure);
  const keyMissingButOptional = apiKeyHeader === null && KEY_OPTIONAL.has(url.pathname);
  if (apiKeyHeader !== state.apiKey && !keyMissingButOptional) {
    return send(response, 401, JSON.stringify({ error: 'Unauthorized', message: 'A valid x-api-key header is required' }));
  }
  const query = url.searchParams;
  if (url.pathname === '/api/token-data') return tokenData(state, query, response);
  if (url.pathname === '/api/wallet-tracker') return walletTracker(state, query, response);
  holdersHistory(state, query, response);
}

function tokenData(state: RestState, query: URLSearchParams, response: ServerResponse): void {
  const single = query.get('address');
  const many = query.get('addresses');
  const requested = [...(single === null ? [] : [single]), ...listOf(many)].map((address) => address.trim()).filter((a) => a !== '');
  if (requested.length === 0) {
    return send(response, 400, JSON.stringify({ error: 'Missing parameter', message: 'Provide the address or addresses parameter' }));
  }
  const invalid = requested.find((address) => !isSolanaAddress(address));
  if (invalid !== undefined) {
    return send(response, 400, JSON.stringify({ error: 'Invalid token address', message: `${invalid} is not a token address` }));
  }
  const data: { [address: string]: VendorToken } = {};
  for (const address of requested) {
    const token = state.tokens.get(address);
    if (token) data[address] = token;
  }
  send(response, 200, JSON.stringify({ statusCode: 200, message: null, data }));
}

function walletTracker(state: RestState, query: URLSearchParams, response: ServerResponse): void {
  const wallets = [...new Set(listOf(query.get('wallets')).map((wallet) => wallet.trim()))].filter((wallet) => wallet !== '');
  if (wallets.length === 0) return send(response, 400, JSON.stringify({ error: 'No wallet addresses provided' }));
  // Each wallet's list is kept newest first; a stable sort keeps that order among equal timestamps.
  const trades = wallets.flatMap((wallet) => state.walletTrades.get(wallet) ?? []).sort((a, b) => b.timestamp - a.timestamp);
  const tokensMetadata: { [address: string]: JsonObject } = {};
  for (const trade of trades) {
    const token = state.tokens.get(trade.makerData.tokenAddress);
    if (token) tokensMetadata[token.address] = tokenMetadataOf(token);
  }
  send(response, 200, JSON.stringify({ tradeHistory: trades, tokensMetadata }));
}

function holdersHistory(state: RestState, query: URLSearchParams, response: ServerResponse): void {
  const address = query.get('address')?.trim() ?? '';
  if (address === '') return send(response, 400, JSON.stringify({ error: 'Token address is required' }));
  const holders = [...(state.holders.get(address) ?? [])];
  const sortBy = query.get('sortBy') ?? 'balance';
  if (sortBy === 'balance') holders.sort((a, b) => compareDescending(BigInt(a.currentlyHoldingAmount), BigInt(b.currentlyHoldingAmount)));
  send(response, 200, JSON.stringify(holders));
}

function compareDescending(a: bigint, b: bigint): number {
  return a === b ? 0 : a > b ? -1 : 1;
}

function listOf(value: string | null): string[] {
  return value === null ? [] : value.split(',');
}

function takeFailure(state: RestState, path: string): Failure | null {
  const index = state.failures.findIndex((failure) => failure.path === undefined || failure.path === path);
  const failure = state.failures[index];
  if (!failure) return null;
  failure.remaining -= 1;
  if (failure.remaining <= 0) state.failures.splice(index, 1);
  return failure;
}

const FAILURE_TITLES: Record<Failure['status'], string> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

function fail(response: ServerResponse, failure: Failure): void {
  const retryAfter = failure.retryAfterSec ?? (failure.status === 429 ? 1 : undefined);
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  send(response, failure.status, JSON.stringify({ error: FAILURE_TITLES[failure.status] }), headers);
}

function send(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}
