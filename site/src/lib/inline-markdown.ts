// OpenAPI descriptions are CommonMark; the reference renders the part they use: `code`.

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function inlineMarkdown(text: string | undefined): string {
  return escape(text ?? "").replace(/`([^`]+)`/g, "<code>$1</code>");
}
