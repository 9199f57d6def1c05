import { XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * Reads XML for tests with a real parser (fast-xml-parser): refuses what a feed reader would
 * refuse (validation first, then a declaration), and returns a small element tree to look at.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Text directly inside the element (CDATA included), entities decoded. */
  text: string;
}

type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
});

function toElement(node: OrderedNode): XmlElement | null {
  const name = Object.keys(node).find((key) => key !== ":@" && key !== "#text");
  if (!name) return null;
  const content = (node[name] as OrderedNode[]) ?? [];
  const children: XmlElement[] = [];
  let text = "";
  for (const child of content) {
    if ("#text" in child) text += String(child["#text"]);
    else {
      const element = toElement(child);
      if (element) children.push(element);
    }
  }
  return { name, attributes: { ...(node[":@"] ?? {}) }, children, text };
}

export function parseXml(xml: string): XmlElement {
  if (!xml.startsWith("<?xml")) throw new Error("the XML declaration is missing");
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`invalid XML: ${valid.err.msg} (line ${valid.err.line})`);
  const roots = (parser.parse(xml) as OrderedNode[])
    .map(toElement)
    .filter((element): element is XmlElement => element !== null);
  if (roots.length !== 1) throw new Error(`expected one root element, found ${roots.length}`);
  return roots[0] as XmlElement;
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

export function childText(element: XmlElement, name: string): string | undefined {
  return childrenNamed(element, name)[0]?.text;
}
