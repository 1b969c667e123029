import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from '../../i18n/use-translation';
// The dialog's styles come with it, in the register page's stylesheet (app/styles.ts): Modal draws
// on ModalBase, Overlay and Paper.
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import './terms-of-use.css';

// spec §1: the 7 sections, in order.
const SECTIONS = [
  'subject',
  'portal',
  'maintenance',
  'dataSecurity',
  'dataProtection',
  'validity',
  'finalProvisions',
] as const;

interface TermsOfUseModalProps {
  opened: boolean;
  /** Close, the × button, Escape or a click beside the dialog: just closes. */
  onClose: () => void;
  /** Accept: the caller ticks its checkbox; the modal closes as well. */
  onAccept: () => void;
}

/** spec §1: the terms' seven sections, for the dialog and for the page without JavaScript. */
export function TermsOfUseSections() {
  const { t } = useTranslation();
  return SECTIONS.map((section) => (
    <section key={section}>
      <Title order={3} size="h4" mb="xs">
        {t(`terms.sections.${section}.title`)}
      </Title>
      {t(`terms.sections.${section}.body`)
        .split(/\n\s*\n/)
        .map((paragraph) => (
          <Text key={paragraph} mb="xs">
            {paragraph}
          </Text>
        ))}
    </section>
  ));
}

/**
 * The terms of use (spec §1) in a dialog: focus is trapped inside while it is open and goes back to
 * the button that opened it. Full screen on phones, so the text gets the whole width.
 */
export function TermsOfUseModal({ opened, onClose, onAccept }: TermsOfUseModalProps) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal.Root opened={opened} onClose={onClose} size="lg" fullScreen={isPhone}>
      <Modal.Overlay />
      <Modal.Content className="terms-dialog">
        <Modal.Header>
          <Modal.Title>{t('terms.title')}</Modal.Title>
          <Modal.CloseButton aria-label={t('terms.close')} />
        </Modal.Header>
        {/* The dialog's description (aria-describedby) is the body: only the short introduction,
            so that a screen reader reads the title and one sentence, not the whole terms. */}
        <Modal.Body>
          <Text>{t('terms.intro')}</Text>
        </Modal.Body>
        <Stack gap="md" className="terms-text">
          <TermsOfUseSections />
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t('terms.close')}
            </Button>
            <Button
              onClick={() => {
                onAccept();
                onClose();
              }}
            >
              {t('terms.accept')}
            </Button>
          </Group>
        </Stack>
      </Modal.Content>
    </Modal.Root>
  );
}
