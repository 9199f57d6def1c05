/**
 * The few DOM helpers checkout.js builds its modal with. Only what the tests' fake DOM
 * (tests/support/fake-dom.ts) also has: createElement, children, attributes, text, no globals
 * such as HTMLElement.
 */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string | null,
  text?: string | number | null,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** A labelled radio button appended to `parent`. */
export function radio(
  parent: HTMLElement,
  name: string,
  value: string,
  label: string,
  checked: boolean,
): HTMLInputElement {
  const wrapper = el("label", "rzp-sbx-choice");
  const input = el("input");
  input.type = "radio";
  input.name = name;
  input.value = value;
  input.checked = checked;
  wrapper.appendChild(input);
  wrapper.appendChild(el("span", null, label));
  parent.appendChild(wrapper);
  return input;
}

type Focusable = HTMLElement & { disabled?: boolean };

/** Focusable descendants in document order, skipping hidden subtrees and disabled controls. */
export function focusables(root: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  const walk = (node: Element): void => {
    for (let i = 0; i < node.children.length; i++) {
      const child = node.children[i] as Focusable;
      if (child.hidden) continue;
      const tag = child.tagName;
      const focusable =
        tag === "BUTTON" || tag === "INPUT" || (tag === "A" && child.getAttribute("href"));
      if (focusable && !child.disabled) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}
