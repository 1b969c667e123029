import { describe, expect, it } from 'vitest';
import { type CaughtMessage, createMessageStore } from './message-store';

function message(id: string): CaughtMessage {
  const date = new Date(0).toISOString();
  return {
    id,
    from: 'a@b.ch',
    to: ['c@d.ch'],
    subject: id,
    date,
    receivedAt: date,
    text: '',
    html: '',
    links: [],
  };
}

describe('message store', () => {
  it('keeps only the newest messages once the limit is reached', () => {
    const store = createMessageStore(3);
    for (const id of ['1', '2', '3', '4', '5']) store.add(message(id));
    expect(store.list().map((kept) => kept.id)).toEqual(['5', '4', '3']);
    expect(store.get('1')).toBeUndefined();
  });
});
