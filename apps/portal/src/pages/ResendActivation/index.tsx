import { FIELD } from '@concierge/contracts';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { Layout } from '../../app/Layout';
import { SuccessMessage } from '../../components/Feedback';
import { PageForm } from '../../components/PageForm';
import { PageLink } from '../../components/PageLink';
import { useLinkWithQuery } from '../../hooks/use-link-with-query';
import { useTranslation } from '../../i18n/use-translation';
import { useResendActivation } from './use-resend-activation';

export default function ResendActivationPage() {
  const { t } = useTranslation();
  const { form, submit, isNotVerified, email, subdomain } = useResendActivation();
  const loginLink = useLinkWithQuery('/login', { omit: ['reason'] });
  const registerLink = useLinkWithQuery('/register', { omit: ['reason'] });
  const disabled = submit.isSubmitting;
  return (
    <Layout title={t('resend_account_activation_email.title')}>
      {submit.isSuccess ? (
        <SuccessMessage focusOnMount>{t('resend_account_activation_email.success')}</SuccessMessage>
      ) : (
        <Stack gap="md">
          {isNotVerified && (
            <Alert color="yellow" role="note">
              {t('resend_account_activation_email.notVerifiedNotice')}
            </Alert>
          )}
          <Text>{t('resend_account_activation_email.info')}</Text>
          <PageForm form={form} submit={submit}>
            {subdomain && <input type="hidden" name="subdomain" value={subdomain} />}
            <TextInput
              {...form.inputProps(FIELD.email)}
              defaultValue={email}
              type="email"
              label={t('resend_account_activation_email.email')}
              autoComplete="email"
              inputMode="email"
              required
              disabled={disabled}
            />
            <Button type="submit" fullWidth loading={disabled}>
              {disabled
                ? t('resend_account_activation_email.submitting')
                : t('resend_account_activation_email.submit')}
            </Button>
          </PageForm>
        </Stack>
      )}
      <Stack gap="xs" mt="lg" align="center">
        <PageLink to={loginLink}>{t('resend_account_activation_email.toLogin')}</PageLink>
        <PageLink to={registerLink}>{t('resend_account_activation_email.toRegister')}</PageLink>
      </Stack>
    </Layout>
  );
}
