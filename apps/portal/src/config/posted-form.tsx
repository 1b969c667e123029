import type { FormOutcome, PortalForm } from '@concierge/contracts';
import { createContext, type ReactNode, useContext } from 'react';

interface PostedForm {
  /** What the server did with a form posted to this page without JavaScript, if one was. */
  outcome?: FormOutcome;
  /** The token every form of the page sends along (the server checks it against its cookie). */
  token?: string;
}

const PostedFormContext = createContext<PostedForm>({});

export function PostedFormProvider({ value, children }: { value: PostedForm; children: ReactNode }) {
  return <PostedFormContext.Provider value={value}>{children}</PostedFormContext.Provider>;
}

/** The server's answer to this form, if it was what was posted (a page may have two forms). */
export function usePostedForm(form: Pick<PortalForm, 'page' | 'call'>): FormOutcome | undefined {
  const { outcome } = useContext(PostedFormContext);
  return outcome?.page === form.page && outcome.call === form.call ? outcome : undefined;
}

export function useFormToken(): string {
  return useContext(PostedFormContext).token ?? '';
}
