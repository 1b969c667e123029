// The server-rendered forms work before the JavaScript has arrived, so on a slow phone a tenant may
// type before React takes over. Hydration sets controlled inputs back to their state, which would
// wipe what was typed. So the entry notes what was typed before hydrating, and once hydration has
// committed it is typed again, the way a person would, so that the forms' state takes it in.

interface TypedInput {
  element: HTMLInputElement | HTMLTextAreaElement;
  value?: string;
  checked?: boolean;
}

let typed: TypedInput[] = [];

export function noteTypedInput(container: HTMLElement): void {
  typed = [];
  for (const element of container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
    'input, textarea',
  )) {
    if (element instanceof HTMLInputElement && ['hidden', 'submit', 'button'].includes(element.type))
      continue;
    if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
      if (element.checked !== element.defaultChecked) typed.push({ element, checked: element.checked });
    } else if (element.value !== element.defaultValue) {
      typed.push({ element, value: element.value });
    }
  }
}

export function retypeNotedInput(): void {
  for (const { element, value, checked } of typed) {
    if (!element.isConnected) continue;
    if (checked !== undefined) {
      if (element instanceof HTMLInputElement && element.checked !== checked) element.click();
      continue;
    }
    if (value === undefined || element.value === value) continue;
    const prototype =
      element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  }
  typed = [];
}
