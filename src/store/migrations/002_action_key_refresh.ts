/**
 * Action keys keep the Refresh flag of their action (a Refresh button edits the card in place),
 * and are bound to the thread too, as the in-memory store binds them: a key shown in one forum
 * topic answers "another chat" in the next. Keys written before have no thread (''): they expire
 * within the hour anyway.
 */
export const sql = `
ALTER TABLE action_keys ADD COLUMN refresh INTEGER NOT NULL DEFAULT 0;
ALTER TABLE action_keys ADD COLUMN thread_id TEXT NOT NULL DEFAULT '';
`;
