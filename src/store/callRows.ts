/** A call's row as both stores read it back: the same columns, SQLite's and PostgreSQL's types. */
import type { ChatInterner } from './rows';
import type { Call } from './calls';

export interface CallRow {
  id: number | string;
  platform: string;
  chat_id: string;
  thread_id: string;
  scope_id: string | null;
  address: string;
  symbol: string;
  name: string;
  user_id: string;
  user_name: string;
  message_id: string | null;
  called_at: number | string;
  price_sol: number;
  price_usd: number | null;
  sol_usd: number | null;
  mcap_sol: number | null;
  mcap_usd: number | null;
  peak_sol: number;
  peak_at: number | string;
  last_sol: number;
  last_at: number | string;
  checked_to: number | string;
  next_check_at: number | string | null;
  told_multiple: number;
}

export const CALL_COLUMNS =
  'id, platform, chat_id, thread_id, scope_id, address, symbol, name, user_id, user_name, message_id, called_at, price_sol, ' +
  'price_usd, sol_usd, mcap_sol, mcap_usd, peak_sol, peak_at, last_sol, last_at, checked_to, next_check_at, told_multiple';

export function callOf(row: CallRow, chats: ChatInterner): Call {
  // PostgreSQL's bigint comes back as text: every time column is read through Number.
  return {
    id: Number(row.id),
    chat: chats.chat(row),
    address: row.address,
    symbol: row.symbol,
    name: row.name,
    userId: row.user_id,
    userName: row.user_name,
    messageId: row.message_id,
    calledAt: new Date(Number(row.called_at)),
    priceSol: row.price_sol,
    priceUsd: row.price_usd,
    solUsd: row.sol_usd,
    mcapSol: row.mcap_sol,
    mcapUsd: row.mcap_usd,
    peakSol: row.peak_sol,
    peakAt: new Date(Number(row.peak_at)),
    lastSol: row.last_sol,
    lastAt: new Date(Number(row.last_at)),
    checkedTo: Number(row.checked_to),
    nextCheckAt: row.next_check_at === null ? null : new Date(Number(row.next_check_at)),
    toldMultiple: row.told_multiple,
  };
}
