/**
 * The risk status, derived from the contract flags and holder patterns (spec §2.2) unless a
 * scenario control has set it. The thresholds are the simulator's own, documented in
 * docs/simulator.md.
 */
import type { TokenBook } from './ledger';
import type { RiskStatus } from './wireTypes';
import { LAMPORTS_PER_SOL } from './units';

/** Top-10 holders owning at least this share of supply make a token DANGER. */
export const DANGER_TOP10_SHARE = 0.5;
/** Top-10 holders owning at least this share of supply make a token WARNING. */
export const WARNING_TOP10_SHARE = 0.2;
/** The owner holding at least this share of supply makes a token WARNING. */
export const WARNING_OWNER_SHARE = 0.05;
/** Less SOL than this across all pools means the liquidity is gone: DANGER. */
export const DANGER_LIQUIDITY_LAMPORTS = 1 * LAMPORTS_PER_SOL;

export interface RiskInputs {
  mintAuthority: string | null;
  freezeAuthority: string | null;
  isMutable: boolean;
  top10Share: number;
  ownerShare: number;
  liquidityLamports: number;
}

export function deriveRiskStatus(inputs: RiskInputs): RiskStatus {
  if (
    inputs.mintAuthority !== null ||
    inputs.freezeAuthority !== null ||
    inputs.top10Share >= DANGER_TOP10_SHARE ||
    inputs.liquidityLamports < DANGER_LIQUIDITY_LAMPORTS
  ) {
    return 'DANGER';
  }
  if (inputs.isMutable || inputs.top10Share >= WARNING_TOP10_SHARE || inputs.ownerShare >= WARNING_OWNER_SHARE) {
    return 'WARNING';
  }
  return 'SAFE';
}

export function riskStatusOf(book: TokenBook): RiskStatus {
  if (book.riskOverride) return book.riskOverride;
  const supply = book.profile.totalSupply;
  return deriveRiskStatus({
    mintAuthority: book.risk.mintAuthority,
    freezeAuthority: book.risk.freezeAuthority,
    isMutable: book.risk.isMutable,
    top10Share: book.topHoldersSupply(10) / supply,
    ownerShare: book.holdingOf(book.profile.ownerAddress) / supply,
    liquidityLamports: book.liquidityLamports(),
  });
}
