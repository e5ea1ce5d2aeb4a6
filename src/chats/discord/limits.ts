/**
 * Discord's limits, as named numbers. Sources: the API reference's "Embed Limits", "Button" and
 * "Action Rows" sections. Lengths are UTF-16 code units, never fewer than Discord's own count.
 */
export const EMBED_TITLE_MAX = 256;
export const EMBED_DESCRIPTION_MAX = 4096;
export const EMBED_FIELDS_MAX = 25;
export const EMBED_FIELD_NAME_MAX = 256;
export const EMBED_FIELD_VALUE_MAX = 1024;
export const EMBED_FOOTER_MAX = 2048;
/** Title, description, field names and values, footer text and author name together. */
export const EMBED_TOTAL_MAX = 6000;

export const BUTTON_LABEL_MAX = 80;
export const CUSTOM_ID_MAX = 100;
export const BUTTONS_PER_ROW = 5;
export const ROWS_MAX = 5;

/** What an interaction must be answered within (a reply or a defer). */
export const INTERACTION_ANSWER_MS = 3000;
/** Autocomplete answers at most this many choices; choice names and values at most 100 characters. */
export const AUTOCOMPLETE_CHOICES_MAX = 25;
export const CHOICE_TEXT_MAX = 100;
/** The short error text of an ephemeral answer stays well inside a message's 2,000 characters. */
export const MESSAGE_CONTENT_MAX = 2000;
