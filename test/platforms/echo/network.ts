/**
 * The echo platform's "service": an in-memory chat network, as a platform's SDK and servers are to
 * its folder. People type text and press buttons in its chats; the bot's side listens for those
 * and posts messages back. A test reads what was posted, and may hold the bot's answers back
 * (`holdAnswers`) to fill a chat's queue. Networks are found by name, as a real platform is found
 * by its address in the settings (ECHO_NETWORK).
 */

/** A message the bot posted: an answer to someone, an alert, or the notice that input was skipped. */
export interface EchoMessage {
  chatId: string;
  kind: 'answer' | 'alert' | 'notice';
  text: string;
  /** The buttons under it: their labels, and the keys a press sends back. */
  buttons: Array<{ label: string; key: string }>;
}

/** What the network hands the bot's side. */
export interface EchoListener {
  typed(chatId: string, userId: string, text: string): void;
  pressed(chatId: string, userId: string, key: string): void;
}

const networks = new Map<string, EchoNetwork>();

export class EchoNetwork {
  readonly posted: EchoMessage[] = [];
  private listener: EchoListener | null = null;
  private hold: Promise<void> | null = null;
  private release: (() => void) | null = null;

  private constructor(readonly name: string) {}

  /** A network of its own, found by `name` until closed. */
  static open(name: string): EchoNetwork {
    const network = new EchoNetwork(name);
    networks.set(name, network);
    return network;
  }

  static find(name: string): EchoNetwork | null {
    return networks.get(name) ?? null;
  }

  close(): void {
    networks.delete(this.name);
    this.letAnswersGo();
  }

  /** The bot's side connects; one at a time. */
  connect(listener: EchoListener): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = null;
    };
  }

  connected(): boolean {
    return this.listener !== null;
  }

  type(chatId: string, userId: string, text: string): void {
    this.listener?.typed(chatId, userId, text);
  }

  press(chatId: string, userId: string, key: string): void {
    this.listener?.pressed(chatId, userId, key);
  }

  /** Answers wait until `letAnswersGo`: the chat's turn stays taken, and what it sends meanwhile queues. */
  holdAnswers(): void {
    this.hold ??= new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }

  letAnswersGo(): void {
    this.release?.();
    this.hold = null;
    this.release = null;
  }

  /** Posts a message; an answer waits while answers are held. */
  async post(message: EchoMessage): Promise<void> {
    if (message.kind === 'answer' && this.hold !== null) await this.hold;
    this.posted.push(message);
  }

  messages(chatId: string, kind?: EchoMessage['kind']): EchoMessage[] {
    return this.posted.filter((message) => message.chatId === chatId && (kind === undefined || message.kind === kind));
  }
}
