import { FIELD, listedSpecialCharacters } from '@concierge/contracts';
import type { PortalFormState } from '../hooks/use-portal-form';
import { useTranslation } from '../i18n/use-translation';
import { PasswordField } from './PasswordField';

/**
 * A new password and its confirmation (spec §5), as registration and the reset link ask for them;
 * `texts` is the page's part of the dictionary (`register`, `password_reset.reset`).
 */
export function NewPasswordFields({
  form,
  texts,
  disabled,
}: {
  form: PortalFormState;
  texts: 'register' | 'password_reset.reset';
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        {...form.inputProps(FIELD.newPassword)}
        label={t(`${texts}.newPassword`)}
        description={t(`${texts}.passwordRules`, { specials: listedSpecialCharacters() })}
        autoComplete="new-password"
        required
        disabled={disabled}
      />
      <PasswordField
        {...form.inputProps(FIELD.confirmation)}
        label={t(`${texts}.newPasswordConfirmation`)}
        autoComplete="new-password"
        required
        disabled={disabled}
      />
    </>
  );
}
