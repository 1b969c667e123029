// The server-rendered forms work before the JavaScript has arrived, so on a slow phone a tenant may
// type before React takes over — also while it is taking over: hydration runs in steps. React 19
// keeps what a field shows when it hydrates it, but its state still holds the server's value, and
// the field's next render writes that back: what was typed vanishes a moment later, whenever the
// page happens to render again. So the entry notes what was typed before hydrating and keeps
// listening while it runs; once hydration has committed, every field that was typed into is typed
// again, the way a person would, so that the forms' state takes it in.

type Field = HTMLInputElement | HTMLTextAreaElement;

interface Typed {
  /** The value (or checked state) the server rendered. */
  server: string | boolean;
  /** The last one the tenant gave it. */
  typed: string | boolean;
}

const typed = new Map<Field, Typed>();
let listening: { container: HTMLElement; listener: (event: Event) => void } | undefined;

const isToggleField = (element: Field) =>
  element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio');
const isTypedInto = (element: Element): element is Field =>
  (element instanceof HTMLInputElement && !['hidden', 'submit', 'button'].includes(element.type)) ||
  element instanceof HTMLTextAreaElement;
const currentValueOf = (element: Field) =>
  isToggleField(element) ? (element as HTMLInputElement).checked : element.value;
const serverValueOf = (element: Field) =>
  isToggleField(element) ? (element as HTMLInputElement).defaultChecked : element.defaultValue;

function note(element: Field): void {
  const entry = typed.get(element);
  const server = entry?.server ?? serverValueOf(element);
  typed.set(element, { server, typed: currentValueOf(element) });
}

export function noteTypedInput(container: HTMLElement): void {
  typed.clear();
  for (const element of container.querySelectorAll('input, textarea')) {
    if (isTypedInto(element) && currentValueOf(element) !== serverValueOf(element)) note(element);
  }
  const listener = (event: Event) => {
    if (event.target instanceof Element && isTypedInto(event.target)) note(event.target);
  };
  container.addEventListener('input', listener, true);
  container.addEventListener('change', listener, true);
  listening = { container, listener };
}

export function retypeNotedInput(): void {
  if (listening) {
    listening.container.removeEventListener('input', listening.listener, true);
    listening.container.removeEventListener('change', listening.listener, true);
    listening = undefined;
  }
  for (const [element, { server, typed: value }] of typed) {
    if (!element.isConnected || value === server) continue;
    // React tells a change from the value it last saw. It saw the typed value at hydration, so it
    // first sees the server's again (through the element's own setter, which React watches), then
    // the typed one arrives as the browser would put it (the prototype's setter) with its event.
    if (typeof value === 'boolean') {
      (element as HTMLInputElement).checked = server as boolean;
      element.click();
      continue;
    }
    element.value = server as string;
    const prototype =
      element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(element, value);
    element.dispatchEvent(new Event('input', { bubbles: true }));
  }
  typed.clear();
}
