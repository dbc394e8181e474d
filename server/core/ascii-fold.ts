// Case folding for names that are ASCII by definition (tzdb names). String.toLowerCase()
// folds Unicode too: the Kelvin sign (U+212A) becomes "k", so `Europe/\u212Aiev` would
// name Europe/Kiev. Text with any non-ASCII character folds to nothing instead.

/** `text` with ASCII letters lowercased, or null when it holds any non-ASCII character. */
export function asciiLowerCase(text: string): string | null {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return null;
  return text.toLowerCase(); // on ASCII input, exactly the ASCII fold
}
