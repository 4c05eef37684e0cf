import { describe, expect, it } from 'vitest';
import { allElements, parseXml } from './xml';

describe('parseXml', () => {
  it('reads nested elements, attributes and entities', () => {
    const root = parseXml(`<svg a="1" b='x &amp; y'><g><text x="2">&lt;王&#x5c06;</text></g><circle r="3"/></svg>`);
    expect(root.name).toBe('svg');
    expect(root.attributes).toEqual({ a: '1', b: 'x & y' });
    expect(allElements(root).map((element) => element.name)).toEqual(['svg', 'g', 'text', 'circle']);
    expect(root.children[0].children[0].text).toBe('<王将');
  });

  it.each([
    ['an unclosed tag', '<svg><g></svg>'],
    ['a tag closed twice', '<svg></g></svg>'],
    ['an unquoted attribute', '<svg a=1></svg>'],
    ['a repeated attribute', '<svg a="1" a="2"/>'],
    ['a bare ampersand', '<svg><text>a & b</text></svg>'],
    ['a < in an attribute', '<svg a="<"/>'],
    ['two roots', '<svg/><svg/>'],
    ['text outside the root', 'x<svg/>'],
    ['nothing', ''],
  ])('refuses %s', (_, source) => {
    expect(() => parseXml(source)).toThrow();
  });
});
