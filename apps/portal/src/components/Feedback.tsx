import { Alert } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';

interface FeedbackProps {
  title?: ReactNode;
  children: ReactNode;
  /**
   * Set when the message appears in answer to what the visitor did (a submit): the focus moves to it,
   * so that keyboard and screen-reader users land on it instead of on a vanished or disabled button.
   * Never on page load, except for the server's answer to a form sent without JavaScript: the
   * server renders it with `autofocus` then.
   */
  focusOnMount?: boolean;
}

// The light variant's coloured title text falls below 4.5:1 on its tinted background (green does);
// black keeps it readable, the tint carries the colour.
const readableTitle = { title: { color: 'var(--mantine-color-black)' } };

/** An error above a form or in place of it, announced at once (role="alert"). */
export function ErrorMessage({ title, children, focusOnMount = false }: FeedbackProps) {
  const ref = useFocusOnMount(focusOnMount);
  return (
    <Alert
      ref={ref}
      color="red"
      role="alert"
      tabIndex={-1}
      autoFocus={focusOnMount}
      title={title}
      styles={readableTitle}
    >
      {children}
    </Alert>
  );
}

/** A success message that replaces a form, announced politely (role="status"). */
export function SuccessMessage({ title, children, focusOnMount = false }: FeedbackProps) {
  const ref = useFocusOnMount(focusOnMount);
  return (
    <Alert
      ref={ref}
      color="green"
      role="status"
      tabIndex={-1}
      autoFocus={focusOnMount}
      title={title}
      styles={readableTitle}
    >
      {children}
    </Alert>
  );
}

function useFocusOnMount(enabled: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (enabled) ref.current?.focus();
  }, [enabled]);
  return ref;
}
