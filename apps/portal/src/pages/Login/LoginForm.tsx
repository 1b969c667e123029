import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { linkWithQuery } from '../../hooks/use-link-with-query';
import type { useLogin } from './use-login';

/**
 * A real form that posts to the provider: it works before the JavaScript has loaded, and once it
 * has, the submit handler validates and checks the user first (spec §7).
 */
export function LoginForm({ login }: { login: ReturnType<typeof useLogin> }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const carry = { omit: ['username'], set: { email: login.email || undefined } };
  return (
    <form ref={login.formRef} method="post" action={login.action} onSubmit={login.onSubmit} noValidate>
      <Stack gap="md">
        {login.formError && (
          <Alert color="red" role="alert" data-testid="login-error">
            {t(`login.error.${login.formError}`)}
          </Alert>
        )}
        <TextInput
          ref={login.emailRef}
          name="username"
          type="email"
          label={t('login.email')}
          autoComplete="username"
          inputMode="email"
          required
          value={login.email}
          onChange={(event) => login.setEmail(event.currentTarget.value)}
          error={login.fieldErrors.email && t(login.fieldErrors.email)}
        />
        <PasswordInput
          ref={login.passwordRef}
          name="password"
          label={t('login.password')}
          autoComplete="current-password"
          required
          value={login.password}
          onChange={(event) => login.setPassword(event.currentTarget.value)}
          error={login.fieldErrors.password && t(login.fieldErrors.password)}
        />
        <input type="hidden" name="requestId" value={login.requestId} />
        <input type="hidden" name="username_type" value="email" />
        <Button type="submit" fullWidth loading={login.isSubmitting}>
          {t('login.submit')}
        </Button>
        <Stack gap="xs" align="center">
          {/* spec §2: forgot-password is also the way to unlock a locked account */}
          <Anchor component={Link} to={linkWithQuery('/password-reset-init', searchParams, carry)}>
            {t('login.forgotPassword')}
          </Anchor>
          {login.isRegistrationEnabled && (
            <Anchor component={Link} to={linkWithQuery('/register', searchParams, { omit: ['username'] })}>
              {t('login.register')}
            </Anchor>
          )}
        </Stack>
      </Stack>
    </form>
  );
}
