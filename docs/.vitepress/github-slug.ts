// GitHub's heading slug, which the site uses too (docs/.vitepress/config.mts), so that a link such as
// `intentionqa.md#task-2s-product-universe` finds its heading both on GitHub and on the site.

/** Lower case, every character but letters, digits, `_`, `-` and spaces dropped, each space a hyphen. */
export function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
