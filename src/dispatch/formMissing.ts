/**
 * `/track ADDR`: a command whose first option chooses its form (token or wallet) typed with an
 * address where the form goes. The line cannot be run as it is, but what was meant is plain, so
 * the answer is the whole line to type, the form filled in. Which form the address is, the
 * parser cannot know; the Dispatcher asks the service (QueryService.isWallet) and calls withForm.
 */
import { truncateText } from '../text/sanitize';
import { UsageError } from '../usage';
import type { AnyCommand } from './command';

/** The suggested line is the person's own words back: kept short, cut between graphemes. */
const MAX_SUGGESTION = 200;

export class FormMissingError extends UsageError {
  constructor(
    private readonly typedFor: AnyCommand,
    /** The address read from the word where the form goes (a link's address when it was a link). */
    readonly address: string,
    /** The words that followed it, as typed. */
    readonly rest: readonly string[],
    /** The form suggested; the command's first unless given. */
    readonly form: string | null = null,
  ) {
    const first = typedFor.options[0];
    const forms = first?.type === 'choice' ? first.choices.map((choice) => choice.value) : [];
    const chosen = form ?? forms[0] ?? '';
    const line = truncateText([`/${typedFor.name}`, chosen, address, ...rest].join(' '), MAX_SUGGESTION);
    super(`say ${forms.join(' or ')} before the address`, typedFor, `Did you mean ${line} ?`);
    this.name = 'FormMissingError';
  }

  /** The forms the command has (its first option's values). */
  forms(): string[] {
    const first = this.typedFor.options[0];
    return first?.type === 'choice' ? first.choices.map((choice) => choice.value) : [];
  }

  /** The same mistake, suggesting `form` when the command has it. */
  withForm(form: string): FormMissingError {
    return this.forms().includes(form) ? new FormMissingError(this.typedFor, this.address, this.rest, form) : this;
  }
}
