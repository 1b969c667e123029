import {
  fillPlaceholders,
  type Language,
  mailParagraph,
  renderMailDocument,
  SMALL_PRINT_STYLE,
} from '@concierge/contracts';
import { DEFAULT_BRAND_COLOR } from './brand-color';
import type { MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface PasswordChangedMailInput {
  to: string;
  language: Language;
  /** The readable name of the client the reset was asked for, as in the reset e-mail. */
  tenantName: string;
  /** #rrggbb, validated in config.ts; the default dark blue otherwise. */
  brandColor?: string;
  changedAt: Date;
}

/** Where the tenants live: the time is told as the clocks there show it. */
const TIME_ZONE = 'Europe/Zurich';

/** Each language's own way of writing a date and a time; English as in Britain, as its texts are. */
const LOCALES: Record<Language, string> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-GB' };

/** French and Italian write the first of the month as an ordinal: 1er juillet, 1° luglio. */
const FIRST_OF_MONTH: Record<Language, string> = { de: '1', fr: '1er', it: '1°', en: '1' };

/** The day as a letter writes it: 25. November 2026, 25 novembre 2026, 25 November 2026. */
function writtenDate(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], {
    timeZone: TIME_ZONE,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  })
    .formatToParts(date)
    .map(({ type, value }) => (type === 'day' && value === '1' ? FIRST_OF_MONTH[language] : value))
    .join('');
}

/** The time on a 24-hour clock, as in every language here: 14:30. */
function writtenTime(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], {
    timeZone: TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

/**
 * The notice that a password was changed. It carries no link and nothing secret: it only tells what
 * happened and when, and whom to turn to if it was not the user (a phisher cannot reuse it).
 */
export function renderPasswordChangedMail(input: PasswordChangedMailInput): MailMessage {
  const { passwordChanged: texts, common } = MAIL_TEXTS[input.language];
  const values = {
    tenantName: input.tenantName,
    date: writtenDate(input.changedAt, input.language),
    time: writtenTime(input.changedAt, input.language),
  };
  const text = (value: string) => fillPlaceholders(value, values);
  const subject = text(texts.subject);
  return {
    to: input.to,
    subject,
    html: renderMailDocument({
      language: input.language,
      subject,
      footer: text(common.footer),
      accentColor: input.brandColor ?? DEFAULT_BRAND_COLOR,
      content: [
        mailParagraph(text(texts.greeting)),
        mailParagraph(text(texts.body)),
        mailParagraph(text(texts.signedOut)),
        mailParagraph(text(texts.notYou), 'font-weight:bold'),
        mailParagraph(text(texts.wasYou), SMALL_PRINT_STYLE),
      ].join('\n'),
    }),
    text: [
      text(texts.greeting),
      text(texts.body),
      text(texts.signedOut),
      text(texts.notYou),
      text(texts.wasYou),
      `-- \n${text(common.footer)}`,
    ].join('\n\n'),
  };
}
