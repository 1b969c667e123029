import { Text } from '@mantine/core';

/**
 * A value the tenant cannot change (an invitation's e-mail and code): shown as text, not as an input
 * that looks editable, and wrapped rather than cut off on a narrow phone. The form still sends it.
 */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <fieldset className="read-only-field">
      <legend>
        <Text component="span" fw={600}>
          {label}
        </Text>
      </legend>
      <Text className="read-only-value">{value}</Text>
    </fieldset>
  );
}
