/**
 * REST options for every discord.js REST client the bot makes.
 *
 * discord.js builds uploads (card pictures) as the runtime's global FormData and hands them to the
 * undici request function of its own undici copy, which sends through the process-wide undici
 * dispatcher. Whichever undici copy loads first owns that dispatcher; when it is the bot's undici 7
 * (the market client's), that copy does not recognise the runtime's FormData and every upload fails
 * with "action is not a function". Encoding the form to bytes here, with the runtime's own
 * Response, makes uploads work whatever loaded first.
 */
import { DefaultRestOptions, type RESTOptions } from 'discord.js';

type MakeRequest = RESTOptions['makeRequest'];

export const makeRequestWithEncodedForms: MakeRequest = async (url, init) => {
  if (!(init.body instanceof FormData)) return DefaultRestOptions.makeRequest(url, init);
  const encoded = new Response(init.body);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const headers = new Headers(init.headers as ConstructorParameters<typeof Headers>[0]);
  headers.set('content-type', encoded.headers.get('content-type') ?? 'multipart/form-data');
  return DefaultRestOptions.makeRequest(url, { ...init, body, headers: Object.fromEntries(headers) });
};

export function discordRestOptions(api: string): Pick<RESTOptions, 'api' | 'makeRequest'> {
  return { api, makeRequest: makeRequestWithEncodedForms };
}
