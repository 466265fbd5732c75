// STUB — owned by the purchase-event helper; replaced with the real parser and templates.

/**
 * Every object phrase c for which `text` equals one of the purchase-event templates of c
 * (DESIGN.md 1.2); [] when the text is not a purchase event.
 */
export function parsePurchaseEvent(_text: string): string[] {
  return [];
}
