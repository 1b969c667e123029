import { CONSOLE_CSRF_FIELD } from '@concierge/contracts';
import type { FormEvent, ReactNode, Ref } from 'react';
import { useConsoleState } from '../app/console-state-context';

interface PostFormProps {
  action: string;
  /** For a form with a file: the server reads it as multipart. */
  multipart?: boolean;
  /** Asked before the post where the script runs: a revocation cannot be undone. */
  confirm?: string;
  formRef?: Ref<HTMLFormElement>;
  className?: string;
  children: ReactNode;
}

/**
 * A form the server handles without any script: posted to its action with the session's token, and
 * answered with a redirect to a page that says what happened, or with the form again.
 */
export function PostForm({ action, multipart, confirm, formRef, className, children }: PostFormProps) {
  const { csrfToken } = useConsoleState();
  const onSubmit = confirm
    ? (event: FormEvent<HTMLFormElement>) => {
        if (!window.confirm(confirm)) event.preventDefault();
      }
    : undefined;
  return (
    <form
      ref={formRef}
      method="post"
      action={action}
      encType={multipart ? 'multipart/form-data' : undefined}
      onSubmit={onSubmit}
      className={className}
    >
      <input type="hidden" name={CONSOLE_CSRF_FIELD} value={csrfToken ?? ''} />
      {children}
    </form>
  );
}
