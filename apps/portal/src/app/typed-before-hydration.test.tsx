import { render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { noteTypedInput, retypeNotedInput } from './typed-before-hydration';

function Form() {
  const [email, setEmail] = useState('');
  const [terms, setTerms] = useState(false);
  return (
    <form>
      <input aria-label="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
      <input
        aria-label="terms"
        type="checkbox"
        checked={terms}
        onChange={(event) => setTerms(event.currentTarget.checked)}
      />
      <output>{`${email}|${terms}`}</output>
    </form>
  );
}

describe('typing before hydration', () => {
  it('puts what was typed before React took over into the form state', () => {
    render(<Form />);
    const email = screen.getByLabelText('email') as HTMLInputElement;
    const terms = screen.getByLabelText('terms') as HTMLInputElement;
    // what the browser holds before hydration, as the tenant typed it
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(email, 'anna@example.ch');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set?.call(terms, true);
    noteTypedInput(document.body);
    // hydration puts the controlled values back
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(email, '');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set?.call(terms, false);
    retypeNotedInput();
    expect(screen.getByRole('status')).toHaveTextContent('anna@example.ch|true');
    expect(email.value).toBe('anna@example.ch');
  });

  it('also takes in what was typed while hydration was running', () => {
    render(<Form />);
    const email = screen.getByLabelText('email') as HTMLInputElement;
    noteTypedInput(document.body);
    // typed after the entry looked, before hydration committed
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(email, 'anna@');
    email.dispatchEvent(new Event('input', { bubbles: true }));
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(email, 'anna@example.ch');
    email.dispatchEvent(new Event('input', { bubbles: true }));
    // hydration puts the controlled value back
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(email, '');
    retypeNotedInput();
    expect(email.value).toBe('anna@example.ch');
    expect(screen.getByRole('status')).toHaveTextContent('anna@example.ch|false');
  });

  it('leaves a field alone that React already shows something else in', () => {
    render(<Form />);
    const email = screen.getByLabelText('email') as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(email, 'old@example.ch');
    noteTypedInput(document.body);
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(
      email,
      'newer@example.ch',
    );
    retypeNotedInput();
    expect(email.value).toBe('newer@example.ch');
  });
});
