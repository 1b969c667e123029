import { act, useEffect, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { noteTypedInput, retypeNotedInput } from './typed-before-hydration';

// React's act() environment, so that hydration and effects finish inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let rerender: () => void = () => {};

function Form() {
  const [email, setEmail] = useState('');
  const [terms, setTerms] = useState(false);
  const [, setRenders] = useState(0);
  rerender = () => setRenders((count) => count + 1);
  // As in the portal's Layout: once hydrated, what was typed goes into the state.
  useEffect(retypeNotedInput, []);
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

const setValue = (element: HTMLInputElement, value: string) =>
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(element, value);
const setChecked = (element: HTMLInputElement, checked: boolean) =>
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set?.call(element, checked);

/** The server's HTML of the form, in the page as the browser shows it before the script runs. */
function serverRendered() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Form />);
  document.body.append(container);
  const email = container.querySelector<HTMLInputElement>('[aria-label="email"]')!;
  const terms = container.querySelector<HTMLInputElement>('[aria-label="terms"]')!;
  const output = container.querySelector('output')!;
  return { container, email, terms, output };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('typing before hydration', () => {
  it('puts what was typed before React took over into the form state, and a later render keeps it', async () => {
    const { container, email, terms, output } = serverRendered();
    // the tenant types before the script has run
    setValue(email, 'anna@example.ch');
    setChecked(terms, true);
    noteTypedInput(container);
    await act(async () => {
      hydrateRoot(container, <Form />);
    });
    expect(output.textContent).toBe('anna@example.ch|true');
    // React writes its state into controlled fields whenever they render again
    await act(async () => rerender());
    expect(email.value).toBe('anna@example.ch');
    expect(terms.checked).toBe(true);
    expect(output.textContent).toBe('anna@example.ch|true');
  });

  it('also takes in what was typed while hydration was running', async () => {
    const { container, email, output } = serverRendered();
    noteTypedInput(container);
    // typed after the entry looked, before hydration committed
    setValue(email, 'anna@');
    email.dispatchEvent(new Event('input', { bubbles: true }));
    setValue(email, 'anna@example.ch');
    email.dispatchEvent(new Event('input', { bubbles: true }));
    await act(async () => {
      hydrateRoot(container, <Form />);
    });
    await act(async () => rerender());
    expect(email.value).toBe('anna@example.ch');
    expect(output.textContent).toBe('anna@example.ch|false');
  });

  it('leaves the form alone when nothing was typed', async () => {
    const { container, email, terms, output } = serverRendered();
    noteTypedInput(container);
    await act(async () => {
      hydrateRoot(container, <Form />);
    });
    await act(async () => rerender());
    expect(email.value).toBe('');
    expect(terms.checked).toBe(false);
    expect(output.textContent).toBe('|false');
  });
});
