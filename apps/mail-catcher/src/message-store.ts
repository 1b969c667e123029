/** One received e-mail as the inbox page and the JSON API show it. */
export interface CaughtMessage {
  id: string;
  /** Sender address from the From header, else the envelope sender. */
  from: string;
  /** Every recipient: To and Cc headers plus envelope recipients (so Bcc shows too), without duplicates. */
  to: string[];
  subject: string;
  /** The Date header as ISO 8601, else the time the message arrived. */
  date: string;
  receivedAt: string;
  /** Empty string when the message has no such part. */
  text: string;
  html: string;
  /** Every http(s) link in the text and HTML parts, in order of first appearance. */
  links: string[];
}

export interface MessageStore {
  add(message: CaughtMessage): void;
  /** Newest first; `to` matches one recipient address exactly, ignoring case. */
  list(filter?: { to?: string }): CaughtMessage[];
  get(id: string): CaughtMessage | undefined;
  clear(): void;
}

// A dev tool that runs for days must not grow without limit.
export const MAX_MESSAGES = 1000;

export function createMessageStore(limit = MAX_MESSAGES): MessageStore {
  let messages: CaughtMessage[] = [];
  return {
    add(message) {
      messages.unshift(message);
      if (messages.length > limit) messages.length = limit;
    },
    list(filter = {}) {
      const to = filter.to?.trim().toLowerCase();
      if (!to) return [...messages];
      return messages.filter((message) => message.to.some((address) => address.toLowerCase() === to));
    },
    get(id) {
      return messages.find((message) => message.id === id);
    },
    clear() {
      messages = [];
    },
  };
}
