// TimeZoneDB's wire formats: PHP json_encode (compact, `/` escaped as `\/`, `dst` a string
// "0"/"1"), XML (the default when `format` is absent: <result> with <status>, <message>
// and the fields, lists as <zones><zone>), JSONP through `callback` (a plain identifier
// only), `fields=` narrowing the answer (status and message stay), and its error
// convention: HTTP 200 with {"status":"FAILED","message":"..."} (every client read handles
// that; 405 and 429 keep their status).

import { HttpError } from "../../pipeline/http-errors.ts";
import type { Dialect, DialectErrorContext, RouteRequest } from "../../contract.ts";
import type { ApiData } from "../../pipeline/api-data.ts";
import { costOfBody } from "../../limits/answer-cost.ts";
import type { Holds } from "../../caching/cacheable-answer.ts";
import { keptAnswer } from "../kept-answers.ts";
import { xmlEscape } from "../lookups.ts";
import { queryMap } from "../../params/query.ts";

export type Value = string | number | null;
export type Row = [string, Value][];

/** A client's mistake: answered as status FAILED with this message. */
export const failed = (message: string) => new HttpError("timezonedb", 200, message);

/** A callback a page may name: an identifier, nothing that could be code. */
const CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

export interface OutputOptions {
  format: "json" | "xml";
  callback: string | null;
  /** The fields asked for; null: the endpoint's defaults, or every field when `everyField`. */
  fields: Set<string> | null;
  /** `fields=all`, the vendor's word for every field of the endpoint (namnv609's clients send it). */
  everyField: boolean;
}

export function outputOptions(query: Map<string, string | null>): OutputOptions {
  const format = (query.get("format") ?? "xml").toLowerCase();
  if (format !== "json" && format !== "xml") throw failed("Invalid format.");
  const callback = query.get("callback");
  if (callback !== undefined && callback !== "" && (callback === null || !CALLBACK.test(callback))) throw failed("Invalid callback.");
  const fieldsText = query.get("fields");
  const everyField = fieldsText?.trim().toLowerCase() === "all";
  const fields = fieldsText && !everyField ? new Set(fieldsText.split(",").map((f) => f.trim()).filter((f) => f !== "")) : null;
  return { format, callback: callback || null, fields, everyField };
}

/** PHP's json_encode of a string: JSON with `/` escaped. */
const phpString = (s: string) => JSON.stringify(s).replaceAll("/", "\\/");
const phpValue = (v: Value) => (v === null ? "null" : typeof v === "number" ? String(v) : phpString(v));

function jsonObject(row: Row): string {
  return `{${row.map(([k, v]) => `"${k}":${phpValue(v)}`).join(",")}}`;
}

function xmlFields(row: Row): string {
  return row.map(([k, v]) => (v === null || v === "" ? `<${k}/>` : `<${k}>${xmlEscape(String(v))}</${k}>`)).join("");
}

/** Keeps the fields asked for (and always status, message); `all`: the endpoint's defaults when none are asked for. */
export function narrow(row: Row, fields: Set<string> | null, defaults?: Set<string>): Row {
  const keep = fields ?? defaults;
  if (keep === undefined) return row;
  return row.filter(([k]) => k === "status" || k === "message" || keep.has(k));
}

const TYPES = { json: "application/json; charset=utf-8", xml: "text/xml; charset=utf-8", jsonp: "application/javascript; charset=utf-8" };

/** A result's body and type: `row` the top-level fields, `list` an optional `zones` array of rows. */
export function rendered(options: Pick<OutputOptions, "format" | "callback">, row: Row, list?: Row[]): { body: string; type: string } {
  if (options.format === "xml") {
    const zones = list === undefined ? "" : `<zones>${list.map((z) => `<zone>${xmlFields(z)}</zone>`).join("")}</zones>`;
    return { body: `<?xml version="1.0" encoding="UTF-8"?>\n<result>${xmlFields(row)}${zones}</result>`, type: TYPES.xml };
  }
  const json = list === undefined ? jsonObject(row)
    : `${jsonObject(row).slice(0, -1)},"zones":[${list.map(jsonObject).join(",")}]}`;
  if (options.callback !== null) return { body: `${options.callback}(${json});`, type: TYPES.jsonp };
  return { body: json, type: TYPES.json };
}

/** A refusal, in the format asked for (status FAILED; HTTP 200 but for 405 and 429). */
function renderFailure(data: ApiData, head: boolean, options: OutputOptions, message: string, status: number, extra?: Record<string, string>): Response {
  const { body, type } = rendered(options, [["status", "FAILED"], ["message", message]]);
  return data.responses.dialect(body, type, status, head, { extra });
}

/** An answer, kept for the request's URL while `holds` (kept-answers.ts). */
export function render(request: RouteRequest, holds: Holds, options: OutputOptions, row: Row, list?: Row[]): Response {
  const { body, type } = rendered(options, row, list);
  // Priced by size as the native lists are: list-time-zone's 48-73 KB cost 25-28 time
  // objects to build and charged 1 token (issue 30); by size, 4-5.
  request.cost = costOfBody(body.length);
  return keptAnswer(request, body, type, holds);
}

export const TIMEZONEDB: Dialect = {
  name: "TimeZoneDB",
  error(context: DialectErrorContext, error: HttpError, extra?: Record<string, string>) {
    // The error answers in the format asked for; a refused callback or format answers plain JSON.
    let options: OutputOptions;
    try {
      options = { ...outputOptions(queryMap(context.query, false)), fields: null };
    } catch {
      options = { format: "json", callback: null, fields: null, everyField: false };
    }
    const status = error.status === 429 || error.status === 405 ? error.status : 200;
    const message = error.status === 429 ? "Rate limit exceeded. Please wait and try again." : error.message;
    return renderFailure(context.data, context.head, options, message, status, extra);
  },
};
