import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTenant } from '../config/tenant';
import { useTranslation } from '../i18n/use-translation';

/**
 * The property manager's contact from the tenant registry, on every page: the messages tell
 * tenants to contact their property manager, and this says how. Nothing when the registry has none.
 */
export function ManagerContact() {
  const { t, language } = useTranslation();
  const { contact } = useTenant();
  if (!contact) return null;
  const officeHours = contact.officeHours?.[language];
  return (
    <footer className="manager-contact">
      <Title order={2} size="h5">
        {t('common.contact.title')}
      </Title>
      <Stack gap={2} mt={4}>
        <Text>{contact.name}</Text>
        {contact.phone && (
          <Text>
            {t('common.contact.phone')}{' '}
            <Anchor href={`tel:${contact.phone.replace(/[^+0-9]/g, '')}`}>{contact.phone}</Anchor>
          </Text>
        )}
        {contact.email && (
          <Text>
            {t('common.contact.email')} <Anchor href={`mailto:${contact.email}`}>{contact.email}</Anchor>
          </Text>
        )}
        {officeHours && (
          <Text>
            {t('common.contact.officeHours')} {officeHours}
          </Text>
        )}
      </Stack>
    </footer>
  );
}
