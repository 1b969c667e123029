import { Button, Stack, TextInput } from '@mantine/core';
import { useSearchParams } from 'wouter';
import { ErrorSummary } from '../../components/ErrorSummary';
import { PageLink } from '../../components/PageLink';
import { PasswordField } from '../../components/PasswordField';
import { linkWithQuery } from '../../hooks/use-link-with-query';
import { useTranslation } from '../../i18n/use-translation';
import { LoginError } from './LoginError';
import type { useLogin } from './use-login';

/**
 * A real form that posts to the provider: it works before the JavaScript has loaded, and once it
 * has, the submit handler validates and checks the user first (spec §7).
 */
export function LoginForm({ login }: { login: ReturnType<typeof useLogin> }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const { form } = login;
  const carry = { omit: ['username'], set: { email: login.typedEmail || undefined } };
  const emailProps = form.inputProps('username');
  return (
    <form ref={form.formRef} method="post" action={login.action} onSubmit={login.onSubmit} noValidate>
      <Stack gap="md">
        <ErrorSummary summary={form.summary} />
        {/* The answer to a sign-in attempt (the provider's redirect back, or a submit here): the
            focus goes to it, so that it is read out first (WCAG 3.3.1, issue 12). */}
        {login.formError && (
          <LoginError
            code={login.formError}
            resetLink={linkWithQuery('/password-reset-init', searchParams, carry)}
          />
        )}
        <TextInput
          {...emailProps}
          defaultValue={login.attemptedEmail}
          // spec §5: on login the e-mail is trimmed on input.
          onChange={(event) => {
            const input = event.currentTarget;
            if (input.value !== input.value.trim()) input.value = input.value.trim();
            login.setTypedEmail(input.value);
            emailProps.onChange();
          }}
          type="email"
          label={t('login.email')}
          autoComplete="username"
          inputMode="email"
          required
        />
        <PasswordField
          {...form.inputProps('password')}
          label={t('login.password')}
          autoComplete="current-password"
          required
        />
        <input type="hidden" name="requestId" value={login.requestId} />
        <input type="hidden" name="username_type" value="email" />
        <Button type="submit" fullWidth loading={login.isSubmitting}>
          {t('login.submit')}
        </Button>
        <Stack gap="xs" align="center">
          {/* spec §2: forgot-password is also the way to unlock a locked account */}
          <PageLink to={linkWithQuery('/password-reset-init', searchParams, carry)}>
            {t('login.forgotPassword')}
          </PageLink>
          {login.isRegistrationEnabled && (
            <PageLink to={linkWithQuery('/register', searchParams, { omit: ['username'] })}>
              {t('login.register')}
            </PageLink>
          )}
        </Stack>
      </Stack>
    </form>
  );
}
