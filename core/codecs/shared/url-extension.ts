/** The extension of a URL's path, lowercase (`https://x/a.PDF?v=1` → `pdf`); undefined when it has none or is no URL. */
export function urlExtension(url: string): string | undefined {
  try {
    return /\.([A-Za-z0-9]+)$/.exec(new URL(url).pathname)?.[1].toLowerCase();
  } catch {
    return undefined;
  }
}
