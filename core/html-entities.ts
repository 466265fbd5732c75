// HTML character references in scraped text (Amazon titles carry `&quot;`, `&amp;`, `&#39;`, …),
// decoded for showing the text to a person or a judge. The file's own text is never rewritten: a
// reader keeps the line as read and decodes only what it displays.

/** The named references found in product titles (the released IntentionQA files, Amazon metadata) and the XML five. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  deg: '°',
  reg: '®',
  copy: '©',
  trade: '™',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  hearts: '♥',
  uml: '¨',
  brvbar: '¦',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  plusmn: '±',
  micro: 'µ',
  middot: '·',
  bull: '•',
  laquo: '«',
  raquo: '»',
  eacute: 'é',
  iacute: 'í',
  aacute: 'á',
  oacute: 'ó',
  uacute: 'ú',
  ntilde: 'ñ',
  Acirc: 'Â',
  acirc: 'â',
};

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/**
 * `text` with its character references decoded: numeric ones (`&#39;`, `&#x2019;`) and the named
 * ones above; an unknown name, or a number that is no Unicode scalar value, stays as written.
 * One pass, so `&amp;quot;` becomes `&quot;` (as a browser shows it), not `"`.
 */
export function decodeHtmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    REFERENCE,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name] ?? whole;
      const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
      const scalar = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return scalar ? String.fromCodePoint(code) : whole;
    },
  );
}
