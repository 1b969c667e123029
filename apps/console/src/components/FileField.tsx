import { Input } from '@mantine/core';
import { fieldId } from './form-problems';

interface FileFieldProps {
  name: string;
  label: string;
  description: string;
  accept: string;
  error: string | undefined;
}

/**
 * A plain file input in Mantine's label, description and error: Mantine's own file input is a
 * button that needs the script, and every console form works without it.
 */
export function FileField({ name, label, description, accept, error }: FileFieldProps) {
  const id = fieldId(name);
  const describedBy = [`${id}-description`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <Input.Wrapper id={id} label={label} description={description} error={error}>
      <input
        id={id}
        type="file"
        name={name}
        accept={accept}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        className="file-input"
      />
    </Input.Wrapper>
  );
}
