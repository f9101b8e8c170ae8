import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/community/render-markdown';

/**
 * The stored HTML of a post must be inert whatever the author typed: no element that runs script,
 * no event-handler attribute, no link whose scheme is not http, https or mailto. Checked on the
 * rendered output as a browser would read it, not on the exact text.
 */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<\s*(script|iframe|svg|math|object|embed|img|style|form|input|base|meta|link)\b/i);
  expect(html).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
  for (const [, href] of html.matchAll(/<a\b[^>]*\shref="([^"]*)"/gi)) expect(href).toMatch(/^(https?:\/\/|mailto:)/i);
  expect(html).not.toMatch(/<[^>]*\s(style|src|srcdoc|formaction|xlink:href)\s*=/i);
}

const ATTACKS: Record<string, string> = {
  'a script element': '<script>alert(1)</script>',
  'a script split over lines': '<scr\nipt>alert(1)</script>',
  'an event-handler attribute on an image': '<img src=x onerror=alert(1)>',
  'an event-handler attribute on a paragraph': '<p onclick="alert(1)">hi</p>',
  'a javascript: link': '[click](javascript:alert(1))',
  'a mixed-case javascript: link': '[click](JaVaScRiPt:alert(1))',
  'an entity-encoded javascript: link': '[click](&#106;&#97;vascript:alert(1))',
  'a hex-entity javascript: link with a tab': '[click](java&#x09;script:alert(1))',
  'a javascript: autolink': '<javascript:alert(1)>',
  'a javascript: reference link': '[click][x]\n\n[x]: javascript:alert(1)',
  'a data: link': '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  'a data: image': '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  'a vbscript: link': '[click](vbscript:msgbox(1))',
  'a raw anchor with javascript:': '<a href="javascript:alert(1)">x</a>',
  'an iframe': '<iframe src="https://evil.example"></iframe>',
  'an SVG with script': '<svg><script>alert(1)</script></svg>',
  'an SVG onload': '<svg onload=alert(1)>',
  'an unclosed tag': '<img src=x onerror=alert(1)',
  'an unclosed script': '<script>alert(1)',
  'a quote breaking out of a link': '[x](https://ok.example/" onmouseover="alert(1))',
  'a style attribute': '<div style="background:url(javascript:alert(1))">x</div>',
  'a protocol-relative link': '[x](//evil.example)',
};

describe('stored post HTML', () => {
  for (const [name, source] of Object.entries(ATTACKS)) {
    it(`is inert for ${name}`, () => {
      expectInert(renderMarkdown(source));
    });
  }

  it('keeps the text of raw HTML visible as text', () => {
    expect(renderMarkdown('<b>hi</b>')).toBe('<p>&lt;b&gt;hi&lt;/b&gt;</p>\n');
  });

  it('renders bold and emphasis', () => {
    expect(renderMarkdown('**bold** and _soft_')).toBe('<p><strong>bold</strong> and <em>soft</em></p>\n');
  });

  it('renders an https link with rel nofollow noopener', () => {
    expect(renderMarkdown('[site](https://example.org/a?b=1)')).toBe('<p><a href="https://example.org/a?b=1" rel="nofollow noopener">site</a></p>\n');
  });

  it('renders a mailto link', () => {
    expect(renderMarkdown('[mail](mailto:a@example.org)')).toContain('<a href="mailto:a@example.org" rel="nofollow noopener">mail</a>');
  });

  it('renders lists', () => {
    expect(renderMarkdown('- one\n- two\n\n1. first')).toBe('<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n</ol>\n');
  });

  it('renders inline and fenced code with its markup escaped', () => {
    expect(renderMarkdown('`x<y`\n\n```js\nif (a < b) alert(1)\n```')).toBe('<p><code>x&lt;y</code></p>\n<pre><code>if (a &lt; b) alert(1)\n</code></pre>\n');
  });

  it('renders headings, quotes, rules, strike-through and tables', () => {
    const html = renderMarkdown('# Title\n\n> quoted\n\n---\n\n~~gone~~\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(html).toContain('<hr />');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<td>1</td>');
  });
});
