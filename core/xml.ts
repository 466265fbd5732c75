// Text for hand-written SVG: the characters that would open markup or an entity, escaped.

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A line of SVG text broken at spaces into lines that fit `width` pixels. SVG does not wrap text,
 * and a caveat banner runs past the picture's edge otherwise. Without the font's metrics, each
 * character is taken as `em` of the font size wide (0.6 fits sans-serif text, capitals and bold
 * included, with room to spare); a word longer than a line gets a line of its own.
 */
export function wrapSvgText(text: string, width: number, fontSize: number, em = 0.6): string[] {
  const perLine = Math.max(1, Math.floor(width / (fontSize * em)));
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > perLine) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
