/**
 * A tiny DOM, just enough to run checkout.js in node:vm for tests (no jsdom in this project):
 * elements with children, attributes, text, events, focus, `hidden`/`disabled`/`checked`.
 */
type Listener = (event: FakeEvent) => void;

export interface FakeEvent {
  type: string;
  key?: string;
  shiftKey?: boolean;
  target?: FakeElement;
  defaultPrevented: boolean;
  preventDefault(): void;
  stopPropagation(): void;
}

export function fakeEvent(type: string, init: { key?: string; shiftKey?: boolean } = {}) {
  const event: FakeEvent = {
    type,
    ...init,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
    stopPropagation() {},
  };
  return event;
}

class Listeners {
  private readonly map = new Map<string, Listener[]>();
  addEventListener(type: string, fn: Listener) {
    this.map.set(type, [...(this.map.get(type) ?? []), fn]);
  }
  removeEventListener(type: string, fn: Listener) {
    this.map.set(
      type,
      (this.map.get(type) ?? []).filter((f) => f !== fn),
    );
  }
  dispatchEvent(event: FakeEvent) {
    for (const fn of this.map.get(event.type) ?? []) fn(event);
  }
}

export class FakeElement extends Listeners {
  readonly tagName: string;
  children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  readonly attributes = new Map<string, string>();
  private text = "";
  className = "";
  id = "";
  hidden = false;
  disabled = false;
  checked = false;
  value = "";
  type = "";
  name = "";
  rel = "";
  href = "";
  src = "";
  alt = "";
  tabIndex = 0;
  readonly classList = {
    add: (name: string) => {
      if (!this.className.split(" ").includes(name)) this.className = `${this.className} ${name}`;
    },
    remove: (name: string) => {
      this.className = this.className
        .split(" ")
        .filter((c) => c !== name)
        .join(" ");
    },
    contains: (name: string) => this.className.split(" ").includes(name),
  };

  constructor(
    private readonly doc: FakeDocument,
    tag: string,
  ) {
    super();
    this.tagName = tag.toUpperCase();
  }

  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join("");
  }
  set textContent(value: string) {
    for (const child of this.children) child.parentNode = null;
    this.children = [];
    this.text = value;
  }
  appendChild(child: FakeElement) {
    child.parentNode?.removeChild(child);
    child.parentNode = this;
    this.children.push(child);
    return child;
  }
  removeChild(child: FakeElement) {
    this.children = this.children.filter((c) => c !== child);
    child.parentNode = null;
    return child;
  }
  contains(node: unknown): boolean {
    return node === this || this.children.some((c) => c.contains(node));
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  removeAttribute(name: string) {
    this.attributes.delete(name);
  }
  focus() {
    this.doc.activeElement = this;
  }
  click() {
    if (this.disabled) return;
    if (this.type === "radio") {
      for (const other of this.doc.all())
        if (other.type === "radio" && other.name === this.name) other.checked = false;
      this.checked = true;
      this.dispatchEvent(fakeEvent("change"));
    }
    this.dispatchEvent(fakeEvent("click"));
  }
  /** Depth-first descendants (not including this). */
  descendants(): FakeElement[] {
    return this.children.flatMap((c) => [c, ...c.descendants()]);
  }
}

export class FakeDocument extends Listeners {
  activeElement: FakeElement | null = null;
  readonly documentElement: FakeElement;
  readonly head: FakeElement;
  readonly body: FakeElement;
  constructor(readonly currentScript: { src: string } | null) {
    super();
    this.documentElement = new FakeElement(this, "html");
    this.head = this.documentElement.appendChild(new FakeElement(this, "head"));
    this.body = this.documentElement.appendChild(new FakeElement(this, "body"));
    this.activeElement = this.body;
  }
  createElement(tag: string) {
    return new FakeElement(this, tag);
  }
  getElementsByTagName(tag: string) {
    return this.all().filter((e) => e.tagName === tag.toUpperCase());
  }
  all(): FakeElement[] {
    return [this.documentElement, ...this.documentElement.descendants()];
  }
  /** Presses a key on the focused element (the script listens on the document). */
  press(key: string, shiftKey = false) {
    const event = fakeEvent("keydown", { key, shiftKey });
    this.dispatchEvent(event);
    return event;
  }
  /** The first element (document order) that matches and is not inside a hidden subtree. */
  find(predicate: (e: FakeElement) => boolean): FakeElement | undefined {
    return this.all().find((e) => predicate(e) && !this.isHidden(e));
  }
  isHidden(element: FakeElement): boolean {
    for (let e: FakeElement | null = element; e; e = e.parentNode) if (e.hidden) return true;
    return false;
  }
}
