// Text for hand-written SVG: the characters that would open markup or an entity, escaped.

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
