/**
 * When a chat's daily watchlist was set: a digest whose time had already passed that day when it
 * was set is not sent late, while one a stopped bot missed is (src/jobs/dailyDigest.ts).
 */
export const sql = `
ALTER TABLE chats ADD COLUMN digest_since INTEGER;
`;
