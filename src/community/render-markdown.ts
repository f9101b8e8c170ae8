import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Markdown as the forum stores it: rendered once, on write, and the rendered HTML passed through
 * an allow-list. markdown-it with `html: false` already escapes raw HTML and refuses the worst link
 * schemes, but a renderer is not a sanitiser (marked #203, NodeBB #2273 are what trusting one cost):
 * the allow-list below is what the stored HTML is guaranteed to hold, whatever the renderer does.
 */
const renderer = new MarkdownIt({ html: false, linkify: false, typographer: false });

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
const LINK_REL = 'nofollow noopener';

const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'em', 'strong', 'a', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'br', 'del',
    'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  allowedAttributes: { a: ['href', 'rel'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Dropped with their content, not unwrapped: their text is never meant as prose.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'svg', 'math', 'object', 'embed'],
  transformTags: {
    // markdown-it writes ~~struck~~ as <s>; the allow-list speaks <del>.
    s: 'del',
    // Only absolute http(s) and mailto links keep their target; relative or other ones become text.
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = attribs.href ?? '';
      return SAFE_HREF.test(href) ? { tagName, attribs: { href, rel: LINK_REL } } : { tagName: 'span', attribs: {} };
    },
  },
};

/** The HTML stored beside a post's markdown source. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(renderer.render(source), POLICY);
}
