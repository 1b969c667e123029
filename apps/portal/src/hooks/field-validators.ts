// spec §5: the field rules, as plain functions over the contracts' rules (no schema in the browser).
import { isEmailAddress, isRegistrationCode, isStrongPassword } from '@concierge/contracts';
import type { ValidationKey } from './use-portal-form';

export function validateEmail(value: string): ValidationKey | undefined {
  if (!value.trim()) return 'register.error.emailAddressRequired';
  return isEmailAddress(value.trim()) ? undefined : 'register.error.emailAddressInvalid';
}

export function validateNewPassword(value: string): ValidationKey | undefined {
  if (!value) return 'register.error.newPasswordRequired';
  return isStrongPassword(value) ? undefined : 'register.error.newPasswordInvalid';
}

export function validatePasswordConfirmation(
  password: string,
  confirmation: string,
): ValidationKey | undefined {
  if (!confirmation) return 'register.error.newPasswordConfirmationRequired';
  return password === confirmation ? undefined : 'register.error.newPasswordConfirmationNoMatch';
}

export function validateRegistrationCode(value: string): ValidationKey | undefined {
  const code = value.trim();
  if (!code) return 'register.error.registrationCodeRequired';
  return isRegistrationCode(code) ? undefined : 'register.error.registrationCodeInvalidFormat';
}

export function validateTermsAccepted(accepted: boolean): ValidationKey | undefined {
  return accepted ? undefined : 'register.error.termsOfServicesNotAccepted';
}
