import bs58 from 'bs58';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUOTE_MINTS, detectAddress, detectAddresses, isSolanaPublicKey } from '../../src/chats/pasteDetect';

const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const WIF = 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm';
const PUMP = '9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump';
const PAIR = '6cmhwk8SNLvtAwqcC4evXwJLUEHZ8bJZQ2unsdNFdssn';
const WSOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SIGNATURE = '5gCYAMS5icJjUFoHq8WD68DfBnYnqvnjAiarwzzDAtDGv6QP3nrVKmrZ1qQM1HoTjVWpWq9vQ2fttbWRCbsh8ErE';

const first = (text: string, links: string[] = []) => detectAddress(text, links)?.address ?? null;

describe('isSolanaPublicKey', () => {
  it('takes base58 texts of 32 bytes only', () => {
    for (const address of [BONK, WIF, PUMP, PAIR, WSOL, USDC, '11111111111111111111111111111111'])
      expect(isSolanaPublicKey(address), address).toBe(true);
    expect(isSolanaPublicKey(SIGNATURE)).toBe(false);
    expect(isSolanaPublicKey(BONK.slice(0, 40))).toBe(false);
    expect(isSolanaPublicKey('abcdefghijkmnopqrstuvwxyzabcdefghijk')).toBe(false);
    expect(isSolanaPublicKey(`${BONK}0`)).toBe(false);
  });

  it('any 32 bytes encode to an address it takes', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => isSolanaPublicKey(bs58.encode(bytes))));
  });
});

describe('detectAddresses', () => {
  it('finds a bare address, alone or in a sentence', () => {
    expect(first(BONK)).toBe(BONK);
    expect(first(`ape into ${WIF}!!`)).toBe(WIF);
    expect(first(`CA: ${PUMP}`)).toBe(PUMP);
    expect(first(`(${BONK}).`)).toBe(BONK);
  });

  it.each([
    ['Solscan token', `https://solscan.io/token/${BONK}`, 'solscan', BONK],
    ['Solscan account', `https://solscan.io/account/${BONK}#holders`, 'solscan', BONK],
    ['Solana Explorer', `https://explorer.solana.com/address/${BONK}?cluster=mainnet`, 'solana-explorer', BONK],
    ['SolanaFM', `https://solana.fm/address/${BONK}/transactions`, 'solanafm', BONK],
    ['DEX Screener', `https://dexscreener.com/solana/${BONK}`, 'dexscreener', BONK],
    ['DEX Screener without scheme', `dexscreener.com/solana/${BONK}`, 'dexscreener', BONK],
    ['Birdeye', `https://birdeye.so/token/${BONK}?chain=solana`, 'birdeye', BONK],
    ['Birdeye new path', `https://birdeye.so/solana/token/${BONK}`, 'birdeye', BONK],
    ['pump.fun', `https://pump.fun/coin/${PUMP}`, 'pumpfun', PUMP],
    ['pump.fun short', `https://pump.fun/${PUMP}`, 'pumpfun', PUMP],
    ['GMGN', `https://gmgn.ai/sol/token/${BONK}`, 'gmgn', BONK],
    ['GMGN with referral', `https://gmgn.ai/sol/token/abcd1234_${BONK}`, 'gmgn', BONK],
    ['Jupiter swap', `https://jup.ag/swap/SOL-${BONK}`, 'jupiter', BONK],
    ['Jupiter swap, mints both sides', `https://jup.ag/swap/${WSOL}-${BONK}`, 'jupiter', BONK],
    ['Jupiter query', `https://jup.ag/swap?sell=${USDC}&buy=${BONK}`, 'jupiter', BONK],
    ['Jupiter token page', `https://jup.ag/tokens/${BONK}`, 'jupiter', BONK],
    ['Photon', `https://photon-sol.tinyastro.io/en/lp/${BONK}?handle=12345abc`, 'photon', BONK],
    ['Raydium', `https://raydium.io/swap/?inputMint=sol&outputMint=${BONK}`, 'raydium', BONK],
    ['BullX', `https://neo.bullx.io/terminal?chainId=1399811149&address=${BONK}`, 'bullx', BONK],
    ['Axiom', `https://axiom.trade/meme/${BONK}`, 'axiom', BONK],
    ['GeckoTerminal', `https://www.geckoterminal.com/solana/pools/${BONK}`, 'geckoterminal', BONK],
    ['DEXTools', `https://www.dextools.io/app/en/solana/pair-explorer/${BONK}`, 'dextools', BONK],
  ])('finds the address in a %s link', (_name, link, site, address) => {
    expect(detectAddress(`look ${link} wow`)).toEqual({ address, site });
  });

  it('an address in any link counts, after the links of known sites', () => {
    expect(detectAddresses(`https://some.new-dex.example/t/${WIF} and https://dexscreener.com/solana/${BONK}`)).toEqual([
      { address: BONK, site: 'dexscreener' },
      { address: WIF, site: null },
    ]);
  });

  it('links come before bare addresses; duplicates are named once', () => {
    expect(detectAddresses(`${WIF} chart: https://birdeye.so/token/${BONK} ${BONK} ${WIF}`).map((d) => d.address)).toEqual([BONK, WIF]);
  });

  it('passes over SOL, USDC and USDT when something else is there, but finds them alone', () => {
    expect(first(`${WSOL} ${USDC} ${BONK}`)).toBe(BONK);
    expect(first(WSOL)).toBe(WSOL);
    expect(QUOTE_MINTS.has(USDC)).toBe(true);
  });

  it('reads links hidden behind text (text_link entities), and says they were hidden', () => {
    expect(detectAddress('chart here', [`https://dexscreener.com/solana/${BONK}`])).toEqual({
      address: BONK,
      site: 'dexscreener',
      hidden: true,
    });
  });

  it('takes the address the reader sees over one hidden behind a link', () => {
    // The message shows WIF's address; a text link behind it points at BONK.
    expect(detectAddress(`buy ${WIF} now`, [`https://dexscreener.com/solana/${BONK}`])).toEqual({ address: WIF, site: null });
    expect(detectAddress(`https://birdeye.so/token/${WIF}`, [`https://dexscreener.com/solana/${BONK}`])?.address).toBe(WIF);
    expect(detectAddresses(`buy ${WIF}`, [`https://dexscreener.com/solana/${BONK}`]).map((found) => found.address)).toEqual([WIF, BONK]);
  });

  it('never takes a piece of a signature, a longer run, a host name or plain words', () => {
    expect(detectAddresses(`https://solscan.io/tx/${SIGNATURE}`)).toEqual([]);
    expect(detectAddresses(SIGNATURE)).toEqual([]);
    expect(detectAddresses(`${BONK}${WIF}`)).toEqual([]);
    expect(detectAddresses('gm gm, supercalifragilisticexpialidocious wen moon')).toEqual([]);
    expect(detectAddresses('')).toEqual([]);
    expect(detectAddresses(`0x${'a'.repeat(40)}`)).toEqual([]);
  });

  const pasted = fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom(
          BONK,
          WIF,
          SIGNATURE,
          WSOL,
          'https://',
          'dexscreener.com/solana/',
          'solscan.io/token/',
          '/',
          '.',
          '-',
          '_',
          '?a=',
          ' ',
          '\n',
          'é',
          '\u202e',
        ),
      ),
      { maxLength: 24 },
    )
    .map((parts) => parts.join(''));

  it('never throws, and finds only real addresses, whatever the text', () => {
    fc.assert(
      fc.property(pasted, fc.array(pasted, { maxLength: 3 }), (text, links) => {
        const found = detectAddresses(text, links);
        for (const { address } of found) expect(isSolanaPublicKey(address)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
