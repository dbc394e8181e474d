// Time objects as response bytes, fast. Within one second a zone's answer changes only in
// its microsecond digits and client_ip (transitions fall on whole seconds), so each
// (name, profile, format) keeps a template of the current second: the encoded bytes
// between the microsecond slots and the client_ip slot. A request then costs one copy of
// ~350 bytes and a dozen digit writes, instead of formatting dates and encoding a string.
// Requests for another second (`?at=`, or the clock moving on) rebuild the template.

import type { Instant } from "../core/clock.ts";
import type { ResolvedName, ZoneTable } from "../tz/zone-table.ts";
import { buildTimeObject, timeObjectJson, timeObjectText, type Format, type Profile } from "./time-object.ts";

// Markers JSON.stringify leaves alone (DEL is not escaped), never found in tz data.
const MICROS_MARK = "\u007f#\u007f";
const CLIENT_MARK = "\u007f~\u007f";
const JSON_CLIENT = `"${CLIENT_MARK}"`;
const SLOTS = /\u007f#\u007f|"\u007f~\u007f"|\u007f~\u007f/g;

const Slot = { Micros: 0, ClientJson: 1, ClientText: 2 } as const;
type Slot = (typeof Slot)[keyof typeof Slot];

interface Template {
  seconds: number;
  /** The bytes before each slot. */
  parts: Uint8Array[];
  slots: Slot[];
  partsLength: number;
  /** The bytes after the last slot, and the same open for a tail (JSON: without the closing brace). */
  end: Uint8Array;
  openEnd: Uint8Array;
}

const encoder = new TextEncoder();

function makeTemplate(table: ZoneTable, name: ResolvedName, seconds: number, profile: Profile, format: Format): Template {
  const object = buildTimeObject(table, name, { seconds, micros: 0 }, CLIENT_MARK, profile, `.${MICROS_MARK}`);
  const text = format === "json" ? timeObjectJson(object) : timeObjectText(object, profile);
  const parts: Uint8Array[] = [];
  const slots: Slot[] = [];
  let last = 0;
  for (const m of text.matchAll(SLOTS)) {
    parts.push(encoder.encode(text.slice(last, m.index)));
    slots.push(m[0] === MICROS_MARK ? Slot.Micros : m[0] === JSON_CLIENT ? Slot.ClientJson : Slot.ClientText);
    last = m.index! + m[0].length;
  }
  const end = encoder.encode(text.slice(last));
  const openEnd = format === "json" ? end.slice(0, -1) : end;
  return { seconds, parts, slots, partsLength: parts.reduce((n, p) => n + p.length, 0), end, openEnd };
}

export class TimeObjectRenderer {
  private readonly table: ZoneTable;
  /** Per name object (identity-keyed: no string hashing), four templates: profile x format. */
  private readonly templates = new Map<ResolvedName, (Template | undefined)[]>();

  constructor(table: ZoneTable) {
    this.table = table;
  }

  /**
   * `tail`: more keys, written in place of the object's end (JSON: its closing brace, which
   * the tail brings; text: after its last line). `?lang=`'s `timezone_name` is one: written
   * here, not added to a copy, the object is made once.
   */
  render(name: ResolvedName, instant: Instant, clientIp: string | null, profile: Profile, format: Format, tail: Uint8Array | null = null): Uint8Array {
    let forName = this.templates.get(name);
    if (forName === undefined) this.templates.set(name, (forName = []));
    const variant = (profile === "wta" ? 2 : 0) + (format === "text" ? 1 : 0);
    let template = forName[variant];
    if (template === undefined || template.seconds !== instant.seconds) {
      template = makeTemplate(this.table, name, instant.seconds, profile, format);
      forName[variant] = template;
    }
    const { parts, slots } = template;
    const end = tail === null ? template.end : template.openEnd;
    let length = template.partsLength + end.length + (tail === null ? 0 : tail.length);
    for (const slot of slots) {
      length += slot === Slot.Micros ? 6 : clientIp === null ? (slot === Slot.ClientJson ? 4 : 0) : clientIp.length + (slot === Slot.ClientJson ? 2 : 0);
    }
    const out = new Uint8Array(length);
    let at = 0;
    // The six microsecond digits as two offsets into DIGITS ("000".."999").
    const high = Math.floor(instant.micros / 1000) * 3;
    const low = (instant.micros % 1000) * 3;
    for (let i = 0; i < slots.length; i++) {
      out.set(parts[i]!, at);
      at += parts[i]!.length;
      const slot = slots[i]!;
      if (slot === Slot.Micros) {
        out[at] = DIGITS[high]!;
        out[at + 1] = DIGITS[high + 1]!;
        out[at + 2] = DIGITS[high + 2]!;
        out[at + 3] = DIGITS[low]!;
        out[at + 4] = DIGITS[low + 1]!;
        out[at + 5] = DIGITS[low + 2]!;
        at += 6;
      } else if (clientIp === null) {
        if (slot === Slot.ClientJson) {
          out.set(NULL_BYTES, at);
          at += 4;
        }
      } else {
        if (slot === Slot.ClientJson) out[at++] = 34; // "
        for (let c = 0; c < clientIp.length; c++) out[at++] = clientIp.charCodeAt(c); // an address: ASCII only
        if (slot === Slot.ClientJson) out[at++] = 34;
      }
    }
    out.set(end, at);
    if (tail !== null) out.set(tail, at + end.length);
    return out;
  }
}

const NULL_BYTES = encoder.encode("null");
/** "000001002...999" as bytes: three digits per number below 1000. */
const DIGITS = encoder.encode(Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0")).join(""));
