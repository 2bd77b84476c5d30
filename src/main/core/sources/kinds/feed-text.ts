// A feed item's HTML (an RSS description, Atom html/xhtml content, a JSON Feed content_html) as the
// plain text a prompt and a filter read: tags gone, blocks on their own lines, entities decoded,
// whitespace tidied. Not a renderer: what the agent needs is the words, not the layout.

/** The named entities feeds use in practice; any other is left as written. Numeric ones are all decoded. */
const named: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', shy: '',
  ndash: '–', mdash: '—', hellip: '…', bull: '•', middot: '·', laquo: '«', raquo: '»',
  lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', lsaquo: '‹', rsaquo: '›',
  copy: '©', reg: '®', trade: '™', deg: '°', plusmn: '±', times: '×', divide: '÷', para: '¶', sect: '§',
  euro: '€', pound: '£', yen: '¥', cent: '¢', dagger: '†', Dagger: '‡', prime: '′', Prime: '″',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', hArr: '⇔', rArr: '⇒', lArr: '⇐',
  frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³', micro: 'µ', iexcl: '¡', iquest: '¿',
  zwj: '\u200d', zwnj: '\u200c', ensp: ' ', emsp: ' ', thinsp: ' ',
  auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß',
  aacute: 'á', eacute: 'é', iacute: 'í', oacute: 'ó', uacute: 'ú', Aacute: 'Á', Eacute: 'É', Iacute: 'Í', Oacute: 'Ó', Uacute: 'Ú',
  agrave: 'à', egrave: 'è', igrave: 'ì', ograve: 'ò', ugrave: 'ù', Agrave: 'À', Egrave: 'È',
  acirc: 'â', ecirc: 'ê', icirc: 'î', ocirc: 'ô', ucirc: 'û', atilde: 'ã', otilde: 'õ', ntilde: 'ñ', Ntilde: 'Ñ',
  ccedil: 'ç', Ccedil: 'Ç', aring: 'å', Aring: 'Å', aelig: 'æ', AElig: 'Æ', oslash: 'ø', Oslash: 'Ø', euml: 'ë', iuml: 'ï', yuml: 'ÿ',
};

/** Decodes character references: every numeric one (a code point out of range becomes U+FFFD), the named ones above. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/g, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return Object.hasOwn(named, name) && whole.endsWith(';') ? named[name] : whole;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Tags that stand apart as paragraphs, and those that start a line of their own (a list's items, a table's rows). */
const paragraphs = /^(?:p|div|hr|ul|ol|dl|h[1-6]|table|blockquote|pre|section|article|header|footer|figure|figcaption)$/i;
const lines = /^(?:li|dt|dd|tr)$/i;

function breakFor(tag: string, name: string): string {
  if (/^br$/i.test(name)) return '\n';
  if (paragraphs.test(name)) return '\n\n';
  return lines.test(name) && !tag.startsWith('</') ? '\n' : '';
}

/** The text of an HTML fragment. */
export function htmlToText(html: string): string {
  const text = html
    // What is never shown: comments, scripts, styles, and CDATA markers left by a double escape.
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style|template|noscript)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi, '')
    .replace(/<!\[CDATA\[|\]\]>/g, '')
    .replace(/<img\b[^>]*?\balt\s*=\s*("([^"]*)"|'([^']*)')[^>]*>/gi, (_all, _quoted, double?: string, single?: string) => ` ${double ?? single ?? ''} `)
    .replace(/<\/?([A-Za-z][A-Za-z0-9-]*)\b[^>]*>/g, breakFor)
    // A stray < that opens no tag stays; a half tag at the end (a cut feed) goes.
    .replace(/<[A-Za-z/!][^>]*$/, '');
  return tidy(decodeEntities(text));
}

/** Spaces collapsed within lines, at most one empty line between paragraphs, no blank ends. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A one-line text: for a title or an author, where a newline would break the summary. */
export const oneLine = (text: string): string => tidy(text).replace(/\s*\n\s*/g, ' ');
