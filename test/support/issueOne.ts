/** One action's key, through the one way a store issues keys (a card's, together). */
import type { ChatRef } from '../../src/model/chat';
import type { ActionKeyStore, StoredAction } from '../../src/store/actionKeys';

export async function issueOne(keys: ActionKeyStore, action: StoredAction, chat: ChatRef, expiresAt: Date): Promise<string> {
  const [key] = await keys.issueAll([action], chat, expiresAt);
  if (key === undefined) throw new Error('the store issued no key');
  return key;
}
