import {
  fillPlaceholders,
  type Language,
  mailParagraph,
  renderMailDocument,
  SMALL_PRINT_STYLE,
  writtenDate,
  writtenTime,
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
