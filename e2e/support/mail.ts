import { expect } from '@playwright/test';
import { urls } from './urls';

interface CaughtMessage {
  id: string;
  to: string[];
  subject: string;
  text: string;
  links: string[];
}

/** Waits for the newest e-mail to an address at the mail catcher and gives back its first portal link. */
export async function linkFromLatestMail(
  to: string,
  pathname: string,
  timeoutMs = 20_000,
): Promise<{ link: URL; message: CaughtMessage }> {
  let found: { link: URL; message: CaughtMessage } | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${urls.mail}/api/messages?to=${encodeURIComponent(to)}`);
        const messages = (await response.json()) as CaughtMessage[];
        for (const message of messages) {
          const link = message.links.map((href) => new URL(href)).find((url) => url.pathname === pathname);
          if (link) {
            found = { link, message };
            return true;
          }
        }
        return false;
      },
      { timeout: timeoutMs, message: `an e-mail to ${to} with a link to ${pathname}` },
    )
    .toBe(true);
  return found!;
}

export async function mailsTo(to: string): Promise<CaughtMessage[]> {
  const response = await fetch(`${urls.mail}/api/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as CaughtMessage[];
}
