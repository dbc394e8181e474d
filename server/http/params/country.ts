// A country as a parameter (`/timezone?country=`, `/places?country=`, TimeZoneDB's `country`):
// an ISO 3166-1 alpha-2 code, two ASCII letters in any case. Only ASCII is upper-cased:
// "ß" must never meet "SS". Whether the data knows the code is the route's question.

const ALPHA_2 = /^[A-Za-z]{2}$/;

/** The code upper-cased, or null when the text is no two ASCII letters. */
export function countryCode(text: string): string | null {
  return ALPHA_2.test(text) ? text.toUpperCase() : null;
}
