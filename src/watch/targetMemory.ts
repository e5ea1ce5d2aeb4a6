/**
 * What the watcher keeps in memory of each target, and reads from the store when it is missing:
 * the last-seen state (the store holds the durable copy), the follows, what was last written of a
 * token, and the names of tokens that followed wallets trade but no chat follows.
 */
import { errorText, type Logger } from '../log';
import type { Token } from '../market/schemas';
import { tradedToken } from '../market/stream/decode';
import type { TokenRef } from '../model/events';
import type { Follow, FollowKind } from '../model/follow';
import type { TokenSnapshot, WalletSnapshot } from '../model/snapshot';
import type { Store } from '../store/store';
import { tokenRef } from '../alerts/detect/eventBase';
import type { Input } from './inputs';
import type { WrittenToken } from './writtenToken';

/** Names of tokens traded by followed wallets that no chat follows; bounded, oldest out. */
const NAMES_KEPT = 5_000;

export type DescribeToken = (address: string) => Promise<Pick<Token, 'symbol' | 'name' | 'decimals'> | null>;

export class TargetMemory {
  readonly tokenState = new Map<string, TokenSnapshot>();
  readonly walletState = new Map<string, WalletSnapshot>();
  /**
   * Targets the store was asked for and holds no state of: their first input is compared at once
   * (it sets the baseline) instead of waiting for another read. At start every token of a fresh
   * store is one, and ten thousand first inputs held across a read would teach V8 that decoded
   * tokens live long, and it would then allocate every later one straight in the old generation.
   */
  readonly unseen: Record<FollowKind, Set<string>> = { token: new Set(), wallet: new Set() };
  /** The follows of each target, by kind then address (no key joined per lookup: this is read for every frame). */
  readonly followers: Record<FollowKind, Map<string, Follow[]>> = { token: new Map(), wallet: new Map() };
  /** When each token's state was last written, and what a detector reads of it then. */
  readonly written = new Map<string, WrittenToken>();
  private readonly names = new Map<string, { token: TokenRef; decimals: number | null }>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly describeToken: DescribeToken | undefined,
  ) {}

  /** Whether the last-seen state of a target is in memory, or known to be absent from the store. */
  hasState(kind: FollowKind, address: string): boolean {
    return (kind === 'token' ? this.tokenState.has(address) : this.walletState.has(address)) || this.unseen[kind].has(address);
  }

  /** Whether everything the input is compared with is in memory (state, follows, traded tokens' names). */
  inMemory(input: Input): boolean {
    if (input.type === 'token' || input.type === 'price')
      return this.hasState('token', input.address) && this.followers.token.has(input.address);
    if (input.type === 'holder') return this.followers.token.has(input.tokenAddress);
    if (!this.hasState('wallet', input.wallet) || !this.followers.wallet.has(input.wallet)) return false;
    if (!this.describeToken) return true;
    for (const trade of input.trades) {
      const traded = tradedToken(trade);
      if (!this.tokenState.has(traded) && !this.names.has(traded)) return false;
    }
    return true;
  }

  /**
   * Before a target's waiting inputs are compared: its follows and state, and the names of the
   * tokens its trades are in, where they are not in memory yet (each loader skips what is).
   */
  async prepare(target: { kind: FollowKind; address: string }, inputs: readonly Input[]): Promise<void> {
    await this.loadFollowers(target.kind, [target.address]);
    if (target.kind === 'token') await this.loadTokenState([target.address]);
    else await this.loadWalletState([target.address]);
    if (!this.describeToken) return;
    const unnamed = new Set<string>();
    for (const input of inputs) {
      if (input.type !== 'trades') continue;
      for (const trade of input.trades) {
        const traded = tradedToken(trade);
        if (!this.tokenState.has(traded) && !this.names.has(traded)) unnamed.add(traded);
      }
    }
    await Promise.all([...unnamed].map((address) => this.describe(address)));
  }

  /** A traded token's name and decimals, as the alert card shows them; its address alone when unknown. */
  nameOf(address: string): { token: TokenRef; decimals: number | null } {
    const known = this.tokenState.get(address);
    // A followed token's ref carries its risk status, so the trade's card is coloured by it.
    if (known) return { token: tokenRef(known), decimals: known.decimals ?? null };
    return this.names.get(address) ?? { token: { address, symbol: '', name: '' }, decimals: null };
  }

  async loadFollowers(kind: FollowKind, addresses: readonly string[]): Promise<void> {
    const missing = addresses.filter((address) => !this.followers[kind].has(address));
    await Promise.all(
      missing.map(async (address) => {
        this.followers[kind].set(address, await this.store.follows.followersOf(kind, address));
      }),
    );
  }

  async loadTokenState(addresses: readonly string[]): Promise<void> {
    const missing = addresses.filter((address) => !this.hasState('token', address));
    if (missing.length === 0) return;
    const found = await this.store.state.tokens(missing);
    for (const address of missing) {
      const snapshot = found.get(address);
      if (snapshot === undefined) this.unseen.token.add(address);
      else if (!this.tokenState.has(address)) this.tokenState.set(address, snapshot);
    }
  }

  async loadWalletState(addresses: readonly string[]): Promise<void> {
    const missing = addresses.filter((address) => !this.hasState('wallet', address));
    await Promise.all(
      missing.map(async (address) => {
        const snapshot = await this.store.state.wallet(address);
        if (snapshot === null) this.unseen.wallet.add(address);
        else if (!this.walletState.has(address)) this.walletState.set(address, snapshot);
      }),
    );
  }

  /** Follows changed: those of `address` (or of every target) are read again when next needed. */
  dropFollowers(address?: string): void {
    if (address === undefined) {
      this.followers.token.clear();
      this.followers.wallet.clear();
      return;
    }
    // The cache is keyed by kind and address: an address may be followed as either.
    this.followers.token.delete(address);
    this.followers.wallet.delete(address);
  }

  /** Every address of a kind that memory holds something of (state, follows, or a first sight awaited). */
  addresses(kind: FollowKind): string[] {
    const state: ReadonlyMap<string, unknown> = kind === 'token' ? this.tokenState : this.walletState;
    return [...new Set([...state.keys(), ...this.followers[kind].keys(), ...this.unseen[kind]])];
  }

  /** After a failed read or commit, memory may be ahead of the store: the target is read from it again. */
  forget({ kind, address }: { kind: FollowKind; address: string }): void {
    this.unseen[kind].delete(address);
    if (kind === 'wallet') {
      this.walletState.delete(address);
      return;
    }
    this.tokenState.delete(address);
    this.written.delete(address);
  }

  /** State of targets no longer followed is forgotten here (the store keeps it for a later follow). */
  retain(tokens: ReadonlySet<string>, wallets: ReadonlySet<string>): void {
    for (const address of this.tokenState.keys()) if (!tokens.has(address)) this.tokenState.delete(address);
    for (const address of this.written.keys()) if (!tokens.has(address)) this.written.delete(address);
    for (const address of this.unseen.token) if (!tokens.has(address)) this.unseen.token.delete(address);
    for (const address of this.walletState.keys()) if (!wallets.has(address)) this.walletState.delete(address);
    for (const address of this.unseen.wallet) if (!wallets.has(address)) this.unseen.wallet.delete(address);
  }

  private async describe(address: string): Promise<void> {
    const describe = this.describeToken;
    if (!describe) return;
    try {
      const found = await describe(address);
      if (!found) return;
      if (this.names.size >= NAMES_KEPT) {
        const oldest = this.names.keys().next().value;
        if (oldest !== undefined) this.names.delete(oldest);
      }
      this.names.set(address, { token: { address, symbol: found.symbol, name: found.name }, decimals: found.decimals });
    } catch (error) {
      this.logger.debug({ address, error: errorText(error) }, 'could not name a traded token; the alert shows its address');
    }
  }
}
