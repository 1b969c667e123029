import { FIELD } from '@concierge/contracts';
import { Anchor, Button, Checkbox, Text, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { PageForm } from '../../components/PageForm';
import { ReadOnlyField } from '../../components/ReadOnlyField';
import { TermsOfUseModal, TermsOfUseSections } from '../../components/TermsOfUse/TermsOfUseModal';
import { useHydrated } from '../../hooks/use-hydrated';
import { useTranslation } from '../../i18n/use-translation';
import type { useRegister } from './use-register';
// Only this page has a checkbox: its styles come in the page's own stylesheet (app/styles.ts).
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import './checkbox.css';

/** spec §5: the registration code is a UUID; the placeholder shows its pattern. */
const REGISTRATION_CODE_PLACEHOLDER = '00000000-0000-0000-0000-000000000000';

interface RegisterFormProps {
  register: ReturnType<typeof useRegister>;
  /** Its refusal is said above the form, with what to do about it (NewInvitationRequest). */
  isErrorShownAbove?: boolean;
}

export function RegisterForm({ register, isErrorShownAbove = false }: RegisterFormProps) {
  const { t } = useTranslation();
  const isHydrated = useHydrated();
  const { form, submit, defaults } = register;
  const [isTermsOpen, setTermsOpen] = useState(false);
  const termsRef = useRef<HTMLInputElement>(null);
  const disabled = submit.isSubmitting;
  const codeProps = form.inputProps(FIELD.registrationCode);
  return (
    <>
      <PageForm form={form} submit={isErrorShownAbove ? { ...submit, error: null } : submit}>
        <input type="hidden" name="clientid" value={register.clientId} />
        {register.inviteId && <input type="hidden" name="invite_id" value={register.inviteId} />}
        {register.isInvitation && (register.isEmailReadOnly || register.isCodeReadOnly) && (
          <Text>{t('register.readOnlyInvitation')}</Text>
        )}
        {register.isEmailReadOnly ? (
          <>
            <ReadOnlyField label={t('register.email')} value={defaults.email} />
            <input type="hidden" name={FIELD.email} value={defaults.email} />
          </>
        ) : (
          <TextInput
            {...form.inputProps(FIELD.email)}
            defaultValue={defaults.email}
            type="email"
            label={t('register.email')}
            autoComplete="email"
            inputMode="email"
            required
            disabled={disabled}
          />
        )}
        <NewPasswordFields form={form} texts="register" disabled={disabled} />
        {register.isCodeReadOnly ? (
          <>
            <ReadOnlyField label={t('register.registrationCode')} value={defaults.registrationCode} />
            <input type="hidden" name={FIELD.registrationCode} value={defaults.registrationCode} />
          </>
        ) : (
          <TextInput
            {...codeProps}
            onBlur={(event) => {
              register.normaliseCodeInput(event.currentTarget);
              codeProps.onBlur();
            }}
            defaultValue={defaults.registrationCode}
            label={t('register.registrationCode')}
            description={t('register.registrationCodeHint')}
            placeholder={REGISTRATION_CODE_PLACEHOLDER}
            // Not a one-time code from an SMS: browsers must neither fill nor remember it.
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            required
            disabled={disabled}
          />
        )}
        <div>
          <Checkbox
            {...form.checkboxProps(FIELD.terms)}
            ref={termsRef}
            defaultChecked={defaults.termsAccepted}
            label={t('register.termsCheckbox')}
            disabled={disabled}
          />
          {isHydrated ? (
            <Anchor
              component="button"
              type="button"
              mt="xs"
              ml={36}
              onClick={() => setTermsOpen(true)}
              disabled={disabled}
            >
              {t('register.termsOpen')}
            </Anchor>
          ) : (
            // Before the script runs (or without it), the terms open in the page itself.
            <details className="terms-inline">
              <summary>{t('register.termsOpen')}</summary>
              <TermsOfUseSections />
            </details>
          )}
        </div>
        <Button type="submit" fullWidth loading={disabled}>
          {disabled ? t('register.submitting') : t('register.submit')}
        </Button>
      </PageForm>
      <TermsOfUseModal
        opened={isTermsOpen}
        onClose={() => setTermsOpen(false)}
        onAccept={() => {
          // As if ticked by hand: the browser's own click, with its change event.
          if (termsRef.current && !termsRef.current.checked) termsRef.current.click();
        }}
      />
    </>
  );
}
