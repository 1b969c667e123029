import { Button, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Layout } from '../../app/Layout';
import { ErrorMessage, SuccessMessage } from '../../components/Feedback';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PageForm } from '../../components/PageForm';
import { PageLink } from '../../components/PageLink';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { useTranslation } from '../../i18n/use-translation';
import { RESET_LINK_PARAMETERS, usePasswordSet } from './use-password-set';

export default function PasswordSetPage() {
  const { t } = useTranslation();
  const { form, submit, link, missingParameter, mayFindLinkInTab, email } = usePasswordSet();
  const newLinkLink = useLinkWithQuery('/password-reset-init', { omit: RESET_LINK_PARAMETERS });
  const loginLink = useLinkWithQuery('/login', { omit: [...RESET_LINK_PARAMETERS, 'email'] });
  const requestNewLink = <PageLink to={newLinkLink}>{t('password_reset.reset.requestNewLink')}</PageLink>;
  const disabled = submit.isSubmitting;
  let content: ReactNode;
  if (missingParameter) {
    // spec §2: an incomplete link names the missing parameter and shows no form.
    const message = (
      <Stack gap="md">
        <ErrorMessage>
          {t('password_reset.reset.error.missing_url_query_param', { parameter: missingParameter })}
        </ErrorMessage>
        {requestNewLink}
      </Stack>
    );
    // A reload whose one-time ids only the tab still has: until the script has looked there, the
    // message is for a browser without JavaScript only, rather than blaming the link for seconds on
    // a slow phone (React leaves a <noscript>'s content alone when it hydrates).
    content = mayFindLinkInTab ? <noscript>{message}</noscript> : message;
  } else if (submit.isSuccess) {
    // Shown while the browser follows the redirect.
    content = <SuccessMessage focusOnMount>{t('password_reset.success.text')}</SuccessMessage>;
  } else {
    content = (
      <Stack gap="md">
        <Text>{t('password_reset.reset.info')}</Text>
        <PageForm
          form={form}
          submit={submit}
          afterError={submit.error === 'password_reset.reset.error.link_invalid' && requestNewLink}
        >
          <input type="hidden" name="requestId" value={link.requestId} />
          <input type="hidden" name="rprq" value={link.resetRequestId} />
          <input type="hidden" name="exchangeId" value={link.exchangeId} />
          {/* For password managers: the account the new password belongs to (never shown). */}
          {email && (
            <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          )}
          <NewPasswordFields form={form} texts="password_reset.reset" disabled={disabled} />
          <Button type="submit" fullWidth loading={disabled}>
            {disabled ? t('password_reset.reset.submitting') : t('password_reset.reset.submit')}
          </Button>
        </PageForm>
      </Stack>
    );
  }
  return (
    <Layout title={t('password_reset.reset.title')}>
      {content}
      <Text mt="lg" ta="center">
        <PageLink to={loginLink}>{t('password_reset.init.toLogin')}</PageLink>
      </Text>
    </Layout>
  );
}
