/** Telegram serves getUpdates to one client at a time: of several processes, the one holding this lease polls. */
export const TELEGRAM_POLLER_LEASE = 'telegram:poller';
