/**
 * The one reading of credentials in an address: everything between `//` and the last `@` is
 * credentials, whatever it holds, so a password with an unencoded reserved character is hidden
 * whole; and an address setting that holds credentials is refused without echoing them.
 */
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../src/chats/platforms';
import { ConfigError } from '../src/config';
import { redactUrl, urlSecrets } from '../src/urlCredentials';
import { SECRET_PASSWORDS, leakedFragments } from './support/secretPasswords';

const ADDRESSES = [
  (pw: string) => [`postgres://tw:${pw}@db.example:5432/tokenwatch`, 'postgres://tw:***@db.example:5432/tokenwatch'] as const,
  (pw: string) =>
    [`postgresql://tw:${pw}@/tokenwatch?host=/run/postgresql`, 'postgresql://tw:***@/tokenwatch?host=/run/postgresql'] as const,
  (pw: string) => [`https://hook:${pw}@hooks.example/tokenwatch`, 'https://hook:***@hooks.example/tokenwatch'] as const,
  (pw: string) => [`wss://u:${pw}@stream.example/ws`, 'wss://u:***@stream.example/ws'] as const,
] as const;

describe('redactUrl', () => {
  for (const password of SECRET_PASSWORDS) {
    it(`hides the password ${JSON.stringify(password)} whole, keeping user, host and database`, () => {
      for (const address of ADDRESSES) {
        const [written, shown] = address(password);
        expect(redactUrl(written)).toBe(shown);
        expect(leakedFragments(password, redactUrl(written))).toEqual([]);
      }
    });
  }

  it('hides a password given as a query parameter, and a user name that is not plainly one', () => {
    expect(redactUrl('postgres://db.example/tw?user=tw&password=Xq7v#Zr9w&sslmode=require')).toBe(
      'postgres://db.example/tw?user=tw&password=***&sslmode=require',
    );
    expect(redactUrl('postgres://Xq7v/Zr9wKp2m@db.example/tw')).toBe('postgres://***@db.example/tw');
    expect(redactUrl('postgres://tw@db.example/tw')).toBe('postgres://tw@db.example/tw');
    expect(redactUrl('https://api.example.com/x')).toBe('https://api.example.com/x');
  });

  it('knows every form of the password the logger must scrub', () => {
    expect(urlSecrets('postgres://tw:Xq7v%40Zr9w/Kp2m@db/tw')).toEqual(
      expect.arrayContaining(['Xq7v%40Zr9w/Kp2m', 'Xq7v@Zr9w/Kp2m', 'Xq7v', 'Zr9w', 'Kp2m']),
    );
    expect(urlSecrets('postgres://tw@db/tw')).toEqual([]);
  });
});

describe('address settings holding credentials', () => {
  const variables = ['TMDS_BASE_URL', 'TMDS_WS_URL', 'TELEGRAM_API_ROOT', 'TELEGRAM_WEBHOOK_URL', 'DISCORD_REST_API'] as const;
  for (const password of SECRET_PASSWORDS) {
    it(`are refused without echoing ${JSON.stringify(password)}`, () => {
      for (const variable of variables) {
        const scheme = variable === 'TMDS_WS_URL' ? 'wss' : 'https';
        const env: Record<string, string> = {
          TMDS_BASE_URL: 'https://api.example.com',
          TMDS_API_KEY: 'key-1234',
          TELEGRAM_BOT_TOKEN: '123456789:AAtest',
          [variable]: `${scheme}://u:${password}@host.example/x`,
        };
        let message = '';
        try {
          // The general settings and each platform's section, as a process reads them at start.
          loadSettings(env);
        } catch (error) {
          expect(error, variable).toBeInstanceOf(ConfigError);
          message = (error as Error).message;
        }
        expect(message, variable).not.toBe('');
        expect(leakedFragments(password, message), variable).toEqual([]);
      }
    });
  }
});
