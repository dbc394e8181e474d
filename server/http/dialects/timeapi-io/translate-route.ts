// timeapi.io's POST /api/Conversion/Translate (in its Swagger; row in ../dialect-routes.ts):
//
//   {"dateTime": "2021-03-14 17:45:00", "languageCode": "de"}
//   -> {"dateTime":"2021-03-14 17:45:00","languageCode":"de","friendlyDateTime":"Sonntag, 14. März 2021 17:45",
//       "friendlyDate":"Sonntag, 14. März 2021","friendlyTime":"17:45"}
//
// A wall time (no zone) written in a language: the full date and the short time, as .NET's
// "D" and "t" patterns write them (their CLDR data is the same ICU gives Intl), and the two
// joined by a space as its "f" pattern does. The date-time is echoed as sent; the language is
// a two-letter ISO 639-1 code, as timeapi.io's schema says, which ICU must know.

import type { RouteRequest } from "../../contract.ts";
import { parseBody, parseLocal } from "./conversion-routes.ts";
import { sendJson } from "./legacy-routes.ts";
import { timeapiError } from "./timeapi-format.ts";

const LANGUAGE = /^[A-Za-z]{2}$/;

/** ICU's narrow and ordinary no-break spaces (before "PM", inside dates) as the plain spaces .NET writes. */
const plainSpaces = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

function languageOf(text: string | undefined): string {
  if (text === undefined || !LANGUAGE.test(text)) throw timeapiError("Invalid languageCode: use a two-letter ISO 639-1 code");
  const code = text.toLowerCase();
  // A language ICU has no data for would silently be formatted in English: refused instead.
  if (Intl.DateTimeFormat.supportedLocalesOf([code]).length === 0) throw timeapiError(`Unsupported languageCode: ${text}`);
  return code;
}

/** POST Conversion/Translate. */
export function translate(request: RouteRequest, text: string, contentType: string | null): Response {
  const body = parseBody(text, contentType);
  const dateTime = body.get("datetime");
  if (dateTime === undefined || dateTime === "") throw timeapiError("dateTime is required");
  const local = parseLocal(dateTime);
  const language = languageOf(body.get("languagecode"));
  // The wall time's fields, read in UTC: no zone and no offset are involved.
  const at = new Date(local.seconds * 1000);
  const date = plainSpaces(new Intl.DateTimeFormat(language, { dateStyle: "full", timeZone: "UTC" }).format(at));
  const time = plainSpaces(new Intl.DateTimeFormat(language, { timeStyle: "short", timeZone: "UTC" }).format(at));
  return sendJson(request, `{"dateTime":${JSON.stringify(dateTime)},"languageCode":${JSON.stringify(language)},` +
    `"friendlyDateTime":${JSON.stringify(`${date} ${time}`)},"friendlyDate":${JSON.stringify(date)},"friendlyTime":${JSON.stringify(time)}}`);
}
