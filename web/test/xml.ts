// A small XML reader for the tests: enough to say an SVG document is well
// formed (one root, tags nested and closed, attributes quoted and unique,
// entities known) and to look inside it. Written here rather than adding a
// DOM to the dev dependencies: the piece images are plain, generated XML.

/** An element with its attributes and children, text ignored. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITY = /^&(?:amp|lt|gt|apos|quot|#[0-9]+|#x[0-9A-Fa-f]+);/;

function decode(text: string, where: number): string {
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1))
    if (!ENTITY.test(text.slice(i))) throw new Error(`a bare & at ${where + i}`);
  return text
    .replace(/&#x([0-9A-Fa-f]+);/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Reads `source` as one XML element; throws saying where it is not well formed. */
export function parseXml(source: string): XmlElement {
  let at = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${at}: …${source.slice(at, at + 40)}`);
  };
  while (at < source.length) {
    const open = source.indexOf('<', at);
    const textEnd = open < 0 ? source.length : open;
    const text = source.slice(at, textEnd);
    if (text.includes('>')) fail('a bare >');
    if (stack.length > 0) stack[stack.length - 1].text += decode(text, at);
    else if (text.trim() !== '') fail('text outside the root');
    at = textEnd;
    if (open < 0) break;
    if (source.startsWith('<!--', at)) {
      const end = source.indexOf('-->', at);
      if (end < 0) fail('an unclosed comment');
      at = end + 3;
    } else if (source.startsWith('<?', at)) {
      const end = source.indexOf('?>', at);
      if (end < 0 || root || stack.length > 0) fail('a misplaced declaration');
      at = end + 2;
    } else if (source.startsWith('</', at)) {
      const name = NAME.exec(source.slice(at + 2))?.[0] ?? fail('a closing tag without a name');
      const top = stack.pop();
      if (!top || top.name !== name) fail(`</${name}> closes <${top?.name ?? 'nothing'}>`);
      at += 2 + name.length;
      while (/\s/.test(source[at] ?? '')) at++;
      if (source[at] !== '>') fail('a closing tag not ended by >');
      at++;
    } else {
      const name = NAME.exec(source.slice(at + 1))?.[0] ?? fail('a tag without a name');
      const element: XmlElement = { name, attributes: {}, children: [], text: '' };
      at += 1 + name.length;
      for (;;) {
        const space = /^\s*/.exec(source.slice(at))?.[0].length ?? 0;
        at += space;
        if (source.startsWith('/>', at) || source[at] === '>') break;
        if (space === 0) fail('attributes not separated by space');
        const attribute = NAME.exec(source.slice(at))?.[0] ?? fail('a bad attribute name');
        at += attribute.length;
        const quote = /^\s*=\s*(["'])/.exec(source.slice(at)) ?? fail('an attribute without a quoted value');
        at += quote[0].length;
        const end = source.indexOf(quote[1], at);
        if (end < 0) fail('an unclosed attribute value');
        const value = source.slice(at, end);
        if (value.includes('<')) fail('a < in an attribute value');
        if (attribute in element.attributes) fail(`attribute ${attribute} twice`);
        element.attributes[attribute] = decode(value, at);
        at = end + 1;
      }
      if (stack.length > 0) stack[stack.length - 1].children.push(element);
      else if (root) fail('a second root');
      else root = element;
      if (source.startsWith('/>', at)) at += 2;
      else {
        stack.push(element);
        at += 1;
      }
    }
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1].name}> never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element under `element` (itself included), depth first. */
export function allElements(element: XmlElement): XmlElement[] {
  return [element, ...element.children.flatMap(allElements)];
}
