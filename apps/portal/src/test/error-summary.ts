import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * The error summary (issue 25) once it has taken the focus, with the messages of its links: the
 * words shown at the fields, in the form's order.
 */
export async function focusedSummary(name = 'Please check the following:') {
  const summary = await screen.findByRole('alert', { name });
  await waitFor(() => expect(summary).toHaveFocus());
  return {
    summary,
    messages: within(summary)
      .getAllByRole('link')
      .map((link) => link.textContent),
  };
}
