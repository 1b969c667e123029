import type { ConsolePage } from '@concierge/contracts';
import { useEffect, useRef, useState } from 'react';
import { readConsoleState } from '../../console-state';

export type BrandView = Extract<ConsolePage, { page: 'brand' }>;

/** Where the last save as-you-go stands: said in a live region beside the preview. */
export type LiveSaveStatus = 'idle' | 'saving' | 'saved' | 'refused' | 'failed';

/**
 * With the script, a changed field saves the draft at once: the form is posted as it is, the answer
 * (the brand page again, after the server's redirect, or the form refused) carries the new state,
 * and the preview frames load anew with the new draft. Without the script, "Save draft" does the same
 * with a page load. Saves never overlap: a change during one is saved right after it.
 */
export function useLivePreview(initial: BrandView) {
  const [view, setView] = useState(initial);
  const [status, setStatus] = useState<LiveSaveStatus>('idle');
  const [round, setRound] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    let running = false;
    let again = false;
    let stopped = false;
    const save = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      setStatus('saving');
      try {
        do {
          again = false;
          const answer = await postForm(form);
          if (stopped) return;
          if (!answer) {
            setStatus('failed');
            return;
          }
          setView(answer.view);
          setRound((previous) => previous + 1);
          setStatus(answer.refused ? 'refused' : 'saved');
        } while (again);
      } catch {
        if (!stopped) setStatus('failed');
      } finally {
        running = false;
      }
    };
    const onChange = () => void save();
    form.addEventListener('change', onChange);
    return () => {
      stopped = true;
      form.removeEventListener('change', onChange);
    };
  }, []);
  return { view, status, round, formRef };
}

/** The form posted as the browser would; null when the answer is no brand page (the session ended). */
async function postForm(form: HTMLFormElement): Promise<{ view: BrandView; refused: boolean } | null> {
  const response = await fetch(form.action, {
    method: 'POST',
    body: new FormData(form),
    credentials: 'same-origin',
    headers: { accept: 'text/html' },
  });
  if (!response.ok && response.status !== 400) return null;
  const page = new DOMParser().parseFromString(await response.text(), 'text/html');
  const state = readConsoleState(page);
  if (state?.view.page !== 'brand') return null;
  return { view: state.view, refused: response.status === 400 };
}
