type Child = Node | string | false | null | undefined;

/**
 * Builds elements from text nodes only, never from markup: whatever the provider or a URL hands us
 * (an error description, an e-mail) is shown as text.
 */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}
