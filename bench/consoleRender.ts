/**
 * `npm run bench -- console`: how long the console takes to lay out one card as text, on the cards
 * it prints most (a token's card, in colour, as an interactive console does) and on the ones that
 * cost the most per line (a stranger's wide and combining characters, a long description cut over
 * many lines). The figure is the median of five rounds, so one slow round does not move it.
 */
import { bold, code, field, link, rich, text, type Card } from '../src/cards/card';
import { renderCardText } from '../src/chats/console/render';
import type { Row } from './section';

const ADDRESS = 'So11111111111111111111111111111111111111112';
const ROUNDS = 5;
const RENDERS = 2000;

const CARDS: Record<string, Card> = {
  'a token card': {
    title: 'Bonk (BONK)',
    url: `https://solscan.io/token/${ADDRESS}`,
    color: 'safe',
    description: rich('A dog coin. See ', link('the site', 'https://bonk.com'), ' or the pools below.'),
    fields: [
      field('Price', '$0.0₅2867', true),
      field('Liquidity', '$3.4M', true),
      field('Holders', '12.3K', true),
      field('Risk', rich(bold('Mint authority present'), ' · metadata mutable')),
      field('Pools', 'Raydium · $2.1M\nOrca · $1.3M\nMeteora · $0.4M'),
      field('Deployer', code(ADDRESS)),
    ],
    footer: 'Token Market Data',
    timestamp: new Date('2024-05-01T12:00:00Z'),
    actions: [
      { label: 'Chart', command: 'chart', args: [ADDRESS] },
      { label: 'Holders', command: 'holders', args: [ADDRESS] },
    ],
  },
  'wide and combining text': {
    title: '熊猫币 🐼 (PANDA) — Zoë Café',
    color: 'warning',
    description: [text('発行者は匿名です。流動性はロックされていません。'.repeat(4)), text(' e\u0301 n\u0303 👍🏽 👨‍👩‍👧 '.repeat(6))],
    actions: [],
    fields: [field('名前', '熊猫币', true), field('Symbol', '🐼', true), field('Note', 'Zoë · Ångström · ﾊﾝｶｸ'.repeat(3))],
  },
  'a long description': {
    title: 'Digest',
    color: 'info',
    description: [text('word '.repeat(400)), bold('A'.repeat(300))],
    fields: [],
    actions: [],
  },
};

function medianMs(card: Card): number {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (let index = 0; index < RENDERS; index++) renderCardText(card, { color: true });
    rounds.push((performance.now() - started) / RENDERS);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(ROUNDS / 2)] ?? 0;
}

export async function benchConsoleRender(): Promise<Row[]> {
  // One warm-up pass, so that the first card does not pay for compiling the renderer.
  for (const card of Object.values(CARDS)) medianMs(card);
  return Object.entries(CARDS).map(([what, card]) => ({
    what: `console: render ${what} (per card)`,
    figure: `${(medianMs(card) * 1000).toFixed(0)} µs`,
  }));
}
