import { randomUUID } from 'node:crypto';
import PostalMime, { type Address } from 'postal-mime';
import { extractLinks } from './extract-links';
import type { CaughtMessage } from './message-store';

export interface Envelope {
  mailFrom: string | undefined;
  rcptTo: string[];
}

function mailboxes(addresses: Address[] | undefined): string[] {
  return (addresses ?? []).flatMap((address) =>
    address.group ? address.group.map((member) => member.address) : [address.address],
  );
}

function uniqueIgnoringCase(addresses: string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const key = address.toLowerCase();
    if (!address || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isoDate(value: string | undefined, fallback: Date): string {
  const parsed = value ? new Date(value) : undefined;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : fallback.toISOString();
}

export async function parseMessage(
  raw: Uint8Array,
  envelope: Envelope,
  receivedAt = new Date(),
): Promise<CaughtMessage> {
  const email = await PostalMime.parse(raw);
  const text = email.text ?? '';
  const html = email.html ?? '';
  return {
    id: randomUUID(),
    from: mailboxes(email.from ? [email.from] : undefined)[0] ?? envelope.mailFrom ?? '',
    to: uniqueIgnoringCase([...mailboxes(email.to), ...mailboxes(email.cc), ...envelope.rcptTo]),
    subject: email.subject ?? '',
    date: isoDate(email.date, receivedAt),
    receivedAt: receivedAt.toISOString(),
    text,
    html,
    links: extractLinks(text, html),
  };
}
