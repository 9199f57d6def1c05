/**
 * Test helper: a strict little XML reader, enough to prove the feeds and the sitemap are
 * well-formed (one root, balanced tags, quoted attributes, only the predefined or numeric entities)
 * and to look at their structure, without adding an XML package.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text directly inside the element, entities decoded. */
  text: string;
}

const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const BAD_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
const NAME = "[A-Za-z_][\\w.:-]*";
const START_TAG = new RegExp(
  `<(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*(/?)>`,
  "y",
);
const ATTRIBUTE = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`, "g");

function decode(text: string, where: string): string {
  if (BAD_AMPERSAND.test(text)) throw new Error(`unescaped "&" in ${where}: ${text.slice(0, 80)}`);
  return text.replace(ENTITY, (_match, entity: string) => {
    const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
    if (entity in named) return named[entity] ?? "";
    const code = entity.startsWith("#x") ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return String.fromCodePoint(code);
  });
}

export function parseXml(xml: string): XmlElement {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!declaration) throw new Error("missing or wrong XML declaration");
  let position = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  while (position < xml.length) {
    if (xml.startsWith("<!--", position)) {
      const end = xml.indexOf("-->", position);
      if (end === -1) throw new Error("unterminated comment");
      position = end + 3;
    } else if (xml.startsWith("<![CDATA[", position)) {
      const end = xml.indexOf("]]>", position);
      if (end === -1 || !stack.length) throw new Error("CDATA outside an element or unterminated");
      stack.at(-1)!.text += xml.slice(position + 9, end);
      position = end + 3;
    } else if (xml.startsWith("</", position)) {
      const end = xml.indexOf(">", position);
      const name = xml.slice(position + 2, end).trim();
      const open = stack.pop();
      if (!open || open.name !== name) {
        throw new Error(`</${name}> closes <${open?.name ?? "nothing"}> at ${position}`);
      }
      if (stack.length === 0) root = open;
      position = end + 1;
    } else if (xml[position] === "<") {
      START_TAG.lastIndex = position;
      const match = START_TAG.exec(xml);
      if (!match)
        throw new Error(`malformed tag at ${position}: ${xml.slice(position, position + 60)}`);
      if (root) throw new Error("a second root element");
      const element: XmlElement = { name: match[1] ?? "", attributes: {}, children: [], text: "" };
      for (const attribute of (match[2] ?? "").matchAll(ATTRIBUTE)) {
        const name = attribute[1] ?? "";
        if (name in element.attributes) throw new Error(`repeated attribute ${name}`);
        element.attributes[name] = decode(attribute[2] ?? attribute[3] ?? "", `@${name}`);
      }
      stack.at(-1)?.children.push(element);
      if (match[3] === "/") {
        if (stack.length === 0) root = element;
      } else {
        stack.push(element);
      }
      position += match[0].length;
    } else {
      const end = xml.indexOf("<", position);
      const text = xml.slice(position, end === -1 ? xml.length : end);
      if (stack.length === 0) {
        if (text.trim()) throw new Error(`text outside the root element: ${text.slice(0, 40)}`);
      } else {
        if (text.includes("]]>")) throw new Error('"]]>" in text');
        stack.at(-1)!.text += decode(text, `<${stack.at(-1)!.name}>`);
      }
      position = end === -1 ? xml.length : end;
    }
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (!root) throw new Error("no root element");
  return root;
}

/** Direct children with this name. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

/** Text of the first direct child with this name. */
export function childText(element: XmlElement, name: string): string | undefined {
  return element.children.find((child) => child.name === name)?.text;
}
