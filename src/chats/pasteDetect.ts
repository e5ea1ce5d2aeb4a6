/**
 * The chats' paste reader is the market's one reading of addresses in text
 * (src/market/pastedAddress.ts): the commands' address options read links through it too, so a link
 * a chat answers when pasted is one a command takes after its name.
 */
export { detectAddress, detectAddresses, isSolanaPublicKey, QUOTE_MINTS, type DetectedAddress } from '../market/pastedAddress';
