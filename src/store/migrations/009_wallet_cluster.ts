/**
 * Wallets moving together (docs/alerts.md): a chat's cluster setting, JSON {wallets, windowSecs}:
 * how many of its followed wallets trading one token within how many seconds make an alert.
 */
export const sql = `
ALTER TABLE chats ADD COLUMN cluster TEXT;
`;
