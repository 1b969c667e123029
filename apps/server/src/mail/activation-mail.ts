import { formatLifetime } from '@concierge/contracts';
import { composeMail, type MailAddressee, type MailMessage } from './mail-message';
import { MAIL_TEXTS } from './mail-texts';

export interface ActivationMailInput extends MailAddressee {
  link: string;
  /** How long the link lives (ACTIVATION_LINK_TTL_HOURS): the e-mail says it. */
  validHours: number;
}

/** The activation e-mail (ARCHITECTURE "Registration", "Resend activation") in the registration's language. */
export function renderActivationMail(input: ActivationMailInput): MailMessage {
  const { activation } = MAIL_TEXTS[input.language];
  const lifetime = formatLifetime(input.validHours * 60, input.language);
  return composeMail('activation', input, { lifetime }, (text) => ({
    subject: text(activation.subject),
    greeting: text(activation.greeting),
    paragraphs: [text(activation.body)],
    button: { label: text(activation.button), href: input.link },
    linkHint: text(activation.linkHint),
    notes: [text(activation.expiry), text(activation.ignore)],
  }));
}
