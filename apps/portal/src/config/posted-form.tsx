import type { FormOutcome } from '@concierge/contracts';
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

/** The server's answer to the form of the page at `page`, if that was what was posted. */
export function usePostedForm(page: string): FormOutcome | undefined {
  const { outcome } = useContext(PostedFormContext);
  return outcome?.page === page ? outcome : undefined;
}

export function useFormToken(): string {
  return useContext(PostedFormContext).token ?? '';
}
