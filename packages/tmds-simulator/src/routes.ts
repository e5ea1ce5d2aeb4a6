/**
 * The six REST endpoints (spec §4.1–4.6): parameters in, JSON body out. Authentication, rate
 * limiting, fault injection and the writing of responses live in server.ts.
 */
import type { RestEndpoint } from './endpoints';
import type { Market } from './market';
import { HOLDERS_HISTORY_SORTS, type HoldersHistorySort } from './market';
import {
  ApiError,
  MAX_TOKEN_ADDRESSES,
  MAX_TRADES,
  MAX_WALLETS,
  checkAddress,
  checkCount,
  integerParam,
  list,
  param,
  requireParam,
} from './params';
import type { VendorToken } from './vendorWireTypes';
import type { WireToken } from './wireTypes';

/** chart-history defaults (spec §4.5). */
export const CHART_HISTORY_DEFAULT_RANGE_SECS = 24 * 3600;
export const DEFAULT_INTERVAL_SECS = 60;

export type Route = (market: Market, query: URLSearchParams) => unknown;

function notFound(what: string): ApiError {
  return new ApiError(404, 'Not Found', `${what} not found`);
}

function tokenData(market: Market, query: URLSearchParams): unknown {
  const addresses = list([param(query, 'address'), param(query, 'addresses')].filter((v) => v !== null).join(','));
  if (addresses.length === 0) {
    throw new ApiError(400, 'Missing parameter', 'Provide address (a token address) or addresses (comma-separated token addresses)');
  }
  checkCount(addresses, MAX_TOKEN_ADDRESSES, 'token addresses');
  for (const address of addresses) checkAddress(address, 'A token address');
  const data: Record<string, WireToken | VendorToken> = {};
  for (const address of addresses) {
    const token = market.tokenData(address);
    if (token) data[address] = token;
  }
  return { statusCode: 200, message: null, data };
}

function tokenAddressParam(query: URLSearchParams, name = 'address'): string {
  return checkAddress(requireParam(query, name, `Token address is required (query parameter ${name})`), 'The token address');
}

function tokenTechnicals(market: Market, query: URLSearchParams): unknown {
  const data = market.technicals(tokenAddressParam(query));
  if (!data) throw notFound('Token');
  return { statusCode: 200, message: 'OK', data };
}

function holdersHistory(market: Market, query: URLSearchParams): unknown {
  const address = tokenAddressParam(query);
  const sortBy = param(query, 'sortBy') ?? 'balance';
  if (!(HOLDERS_HISTORY_SORTS as readonly string[]).includes(sortBy)) {
    throw new ApiError(400, 'Invalid parameter', `Invalid sortBy: use one of ${HOLDERS_HISTORY_SORTS.join(', ')}`);
  }
  const holders = market.holders(address, sortBy as HoldersHistorySort);
  if (!holders) throw notFound('Token');
  return holders;
}

function walletsParam(query: URLSearchParams, message: string): string[] {
  const wallets = list(param(query, 'wallets'));
  if (wallets.length === 0) throw new ApiError(400, 'Missing parameter', message);
  checkCount(wallets, MAX_WALLETS, 'wallets');
  for (const wallet of wallets) checkAddress(wallet, 'A wallet address');
  return wallets;
}

function tradesHistory(market: Market, query: URLSearchParams): unknown {
  const baseToken = checkAddress(
    requireParam(query, 'baseToken', 'baseToken (token address) and wallets (comma-separated wallet addresses) are required'),
    'baseToken',
  );
  const wallets = walletsParam(query, 'baseToken (token address) and wallets (comma-separated wallet addresses) are required');
  const trades = market.tokenTrades(baseToken, wallets, MAX_TRADES);
  if (!trades) throw notFound('Token');
  return trades;
}

function chartHistory(market: Market, query: URLSearchParams): unknown {
  const base = checkAddress(requireParam(query, 'base', 'base (the base token address) is required'), 'base');
  const now = market.now();
  const to = integerParam(query, 'to', 'Invalid timestamp', 0) ?? now;
  const from = integerParam(query, 'from', 'Invalid timestamp', 0) ?? to - CHART_HISTORY_DEFAULT_RANGE_SECS;
  if (from > to) throw new ApiError(400, 'Invalid timestamp', 'from must not be later than to');
  const intervalSecs = integerParam(query, 'intervalSecs', 'Invalid interval', 1) ?? DEFAULT_INTERVAL_SECS;
  const countBack = integerParam(query, 'countBack', 'Invalid countBack', 1);
  const candles = market.candles(base, { from, to, intervalSecs, ...(countBack === null ? {} : { countBack }) });
  if (!candles) throw notFound('Token');
  return { candles };
}

function walletTracker(market: Market, query: URLSearchParams): unknown {
  const wallets = walletsParam(query, 'No wallet addresses provided: wallets (comma-separated wallet addresses) is required');
  return market.walletTrades(wallets, MAX_TRADES);
}

export const ROUTES: Record<RestEndpoint, Route> = {
  'token-data': tokenData,
  'token-technicals': tokenTechnicals,
  'holders-history': holdersHistory,
  'trades-history': tradesHistory,
  'chart-history': chartHistory,
  'wallet-tracker': walletTracker,
};

/**
 * The error body of an endpoint: `{error, message}` everywhere except holders-history, whose
 * body is `{error}` with the explanation itself (spec §7).
 */
export function errorBody(endpoint: RestEndpoint, title: string, message: string): Record<string, string> {
  return endpoint === 'holders-history' ? { error: message } : { error: title, message };
}
