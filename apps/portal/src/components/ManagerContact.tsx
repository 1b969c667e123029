import type { TenantContact } from '@concierge/contracts';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTenant } from '../config/tenant';
import { useTranslation } from '../i18n/use-translation';

/**
 * The property manager's contact from the tenant registry, on every page: the messages tell
 * tenants to contact their property manager, and this says how. Nothing when the registry has none.
 * Its links stand in lines of text, so they are underlined: colour alone does not tell them apart
 * (WCAG 1.4.1).
 */
export function ManagerContact() {
  const { t } = useTranslation();
  const { contact } = useTenant();
  if (!contact) return null;
  return (
    <footer className="manager-contact">
      <Title order={2} size="h5">
        {t('common.contact.title')}
      </Title>
      <ContactDetails contact={contact} mt={4} />
    </footer>
  );
}

interface ContactDetailsProps {
  contact: TenantContact;
  mt?: number;
  /**
   * `inherit` inside a message: its tinted background is not the white the brand's link colour is
   * chosen for (4.5:1), so the links take the message's text colour, told apart by their underline.
   */
  linkColor?: 'inherit';
}

/**
 * The contact's lines: name, phone and e-mail as links, office hours in the page's language; at the
 * foot of every page, and where a message sends the tenant to the property manager (the locked
 * account on /login).
 */
export function ContactDetails({ contact, mt, linkColor }: ContactDetailsProps) {
  const { t, language } = useTranslation();
  const officeHours = contact.officeHours?.[language];
  return (
    <Stack gap={2} mt={mt}>
      <Text>{contact.name}</Text>
      {contact.phone && (
        <Text>
          {t('common.contact.phone')}{' '}
          <Anchor href={`tel:${contact.phone.replace(/[^+0-9]/g, '')}`} underline="always" c={linkColor}>
            {contact.phone}
          </Anchor>
        </Text>
      )}
      {contact.email && (
        <Text>
          {t('common.contact.email')}{' '}
          <Anchor href={`mailto:${contact.email}`} underline="always" c={linkColor}>
            {contact.email}
          </Anchor>
        </Text>
      )}
      {officeHours && (
        <Text>
          {t('common.contact.officeHours')} {officeHours}
        </Text>
      )}
    </Stack>
  );
}
