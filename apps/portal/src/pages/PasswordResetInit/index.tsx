import { FIELD } from '@concierge/contracts';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { Layout } from '../../app/Layout';
import { ErrorMessage, SuccessMessage } from '../../components/Feedback';
import { PageForm } from '../../components/PageForm';
import { PageLink } from '../../components/PageLink';
import { useDurations } from '../../config/durations';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { useTranslation } from '../../i18n/use-translation';
import { usePasswordResetInit } from './use-password-reset-init';

export default function PasswordResetInitPage() {
  const { t } = useTranslation();
  const durations = useDurations();
  const { form, submit, showsForm, email, requestId, subdomain } = usePasswordResetInit();
  const loginLink = useLinkWithQuery('/login');
  const disabled = submit.isSubmitting;
  let content: ReactNode;
  if (!showsForm) {
    // spec §2: without a request id the page says so and shows no form.
    content = <ErrorMessage>{t('password_reset.init.error.missing_request_id')}</ErrorMessage>;
  } else if (submit.isSuccess) {
    content = <SuccessMessage focusOnMount>{t('password_reset.init.success', durations)}</SuccessMessage>;
  } else {
    content = (
      <Stack gap="md">
        <Text>{t('password_reset.init.info')}</Text>
        <PageForm form={form} submit={submit}>
          <input type="hidden" name="requestId" value={requestId} />
          {subdomain && <input type="hidden" name="subdomain" value={subdomain} />}
          <TextInput
            {...form.inputProps(FIELD.email)}
            defaultValue={email}
            type="email"
            label={t('password_reset.init.email')}
            autoComplete="email"
            inputMode="email"
            required
            disabled={disabled}
          />
          <Button type="submit" fullWidth loading={disabled}>
            {disabled ? t('password_reset.init.submitting') : t('password_reset.init.submit')}
          </Button>
        </PageForm>
      </Stack>
    );
  }
  return (
    <Layout title={t('password_reset.init.title')}>
      {content}
      <Text mt="lg" ta="center">
        <PageLink to={loginLink}>{t('password_reset.init.toLogin')}</PageLink>
      </Text>
    </Layout>
  );
}
