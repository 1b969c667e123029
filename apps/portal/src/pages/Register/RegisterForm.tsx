import { listedSpecialCharacters } from '@concierge/contracts';
import { Anchor, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorMessage } from '../../components/Feedback';
import { PasswordField } from '../../components/PasswordField';
import { ReadOnlyField } from '../../components/ReadOnlyField';
import { TermsOfUseModal } from '../../components/TermsOfUse/TermsOfUseModal';
import { useHydrated } from '../../hooks/use-hydrated';
import { useTranslation } from '../../i18n/use-translation';
import type { useRegister } from './use-register';
// Only this page has a checkbox: its styles come in the page's own stylesheet (app/styles.ts).
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import './checkbox.css';

/** spec §5: the registration code is a UUID; the placeholder shows its pattern. */
const REGISTRATION_CODE_PLACEHOLDER = '00000000-0000-0000-0000-000000000000';

export function RegisterForm({ register }: { register: ReturnType<typeof useRegister> }) {
  const { t } = useTranslation();
  const isHydrated = useHydrated();
  const { form, submit } = register;
  const { values } = form;
  const [isTermsOpen, setTermsOpen] = useState(false);
  const disabled = submit.isSubmitting;
  return (
    <>
      <form method="post" onSubmit={submit.onSubmit} noValidate>
        <Stack gap="md">
          {submit.error && <ErrorMessage focusOnMount={submit.isFailed}>{t(submit.error)}</ErrorMessage>}
          {register.isInvitation && (register.isEmailReadOnly || register.isCodeReadOnly) && (
            <Text>{t('register.readOnlyInvitation')}</Text>
          )}
          {register.isEmailReadOnly ? (
            <ReadOnlyField label={t('register.email')} value={values.email} />
          ) : (
            <TextInput
              {...form.inputProps('email')}
              name="email"
              type="email"
              label={t('register.email')}
              autoComplete="email"
              inputMode="email"
              required
              readOnly={register.isEmailReadOnly}
              disabled={disabled}
            />
          )}
          <PasswordField
            {...form.inputProps('password')}
            name="new-password"
            label={t('register.newPassword')}
            description={t('register.passwordRules', { specials: listedSpecialCharacters() })}
            autoComplete="new-password"
            required
            disabled={disabled}
          />
          <PasswordField
            {...form.inputProps('passwordConfirmation')}
            name="new-password-confirmation"
            label={t('register.newPasswordConfirmation')}
            autoComplete="new-password"
            required
            disabled={disabled}
          />
          {register.isCodeReadOnly ? (
            <ReadOnlyField label={t('register.registrationCode')} value={values.registrationCode} />
          ) : (
            <TextInput
              {...form.inputProps('registrationCode')}
              onBlur={register.onRegistrationCodeBlur}
              name="registrationcode"
              label={t('register.registrationCode')}
              description={t('register.registrationCodeHint')}
              placeholder={REGISTRATION_CODE_PLACEHOLDER}
              // Not a one-time code from an SMS: browsers must neither fill nor remember it.
              autoComplete="off"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              required
              readOnly={register.isCodeReadOnly}
              disabled={disabled}
            />
          )}
          <div>
            <Checkbox
              {...form.checkboxProps('termsAccepted')}
              name="terms"
              label={t('register.termsCheckbox')}
              disabled={disabled}
            />
            <Anchor
              component="button"
              type="button"
              mt="xs"
              ml={36}
              onClick={() => setTermsOpen(true)}
              // The dialog is the page's script: until it runs (after the page has loaded), a tap
              // here would do nothing, so the button says it is not ready yet.
              disabled={disabled || !isHydrated}
            >
              {t('register.termsOpen')}
            </Anchor>
          </div>
          <Button type="submit" fullWidth loading={disabled} disabled={!isHydrated}>
            {disabled ? t('register.submitting') : t('register.submit')}
          </Button>
        </Stack>
      </form>
      <TermsOfUseModal
        opened={isTermsOpen}
        onClose={() => setTermsOpen(false)}
        onAccept={() => form.setFieldValue('termsAccepted', true)}
      />
    </>
  );
}
