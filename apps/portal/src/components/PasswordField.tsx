import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { type Ref, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';

type PasswordFieldProps = Omit<
  PasswordInputProps,
  'visible' | 'onVisibilityChange' | 'visibilityToggleFocusable' | 'visibilityToggleButtonProps'
> & { ref?: Ref<HTMLInputElement> };

/**
 * Every password field of the portal (WCAG 2.2 AA, issue 12), so that what Mantine's PasswordInput
 * leaves out is set in one place:
 * - the show-password button is reached by Tab (Mantine takes it out of the tab order), is named in
 *   the page's language (Mantine's name is English) and says whether the password is shown by
 *   aria-pressed — one fixed name for a toggle button, so that a screen reader does not announce
 *   "hide password, pressed"; accessibility.css makes it a 44 × 44 px target;
 * - a field that shows an error is marked aria-invalid (Mantine does so for its text inputs only);
 *   its aria-describedby names the error and the description (Mantine).
 */
export function PasswordField({ error, ...props }: PasswordFieldProps) {
  const { t } = useTranslation();
  const [isVisible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      error={error}
      aria-invalid={error ? true : undefined}
      visible={isVisible}
      onVisibilityChange={setVisible}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': t('common.showPassword') }}
    />
  );
}
