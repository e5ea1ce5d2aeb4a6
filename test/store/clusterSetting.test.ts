/**
 * A chat's wallet cluster setting (`/track cluster`) on every store (support/stores.ts): kept with
 * its other settings, left alone by an update that does not name it, and cleared with null.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chat } from './helpers';
import { STORE_KINDS, type ContractStore, type StoreHome } from './support/stores';

describe.each(STORE_KINDS)('the wallet cluster setting (%s)', (_kind, makeHome) => {
  let home: StoreHome;
  let store: ContractStore;

  beforeEach(async () => {
    home = await makeHome();
    store = await home.open();
  });
  afterEach(async () => {
    await store.close();
    await home.remove();
  });

  it('is kept, left by other updates, and cleared', async () => {
    expect((await store.chats.settings(chat('1'))).cluster).toBeUndefined();
    await store.chats.updateSettings(chat('1'), { cluster: { wallets: 3, windowSecs: 1_800 } });
    await store.chats.updateSettings(chat('1'), { budget: 10 });
    expect(await store.chats.settings(chat('1'))).toMatchObject({ cluster: { wallets: 3, windowSecs: 1_800 }, budget: 10 });
    expect((await store.chats.settings(chat('2'))).cluster).toBeUndefined();
    await store.chats.updateSettings(chat('1'), { cluster: null });
    expect((await store.chats.settings(chat('1'))).cluster).toBeUndefined();
  });
});
