// Stage 1: zic input text (zic.8) -> Rule, Zone and Link records, nothing resolved yet.
// Accepts both the long forms of the release's region files (`Rule`, `October`, `lastSun`)
// and the compact forms of tzdata.zi (`R`, `O`, `lastSu`): every keyword, month and
// weekday may be written as any unambiguous prefix, as zic.8 specifies.

import { YEAR_TYPES, type YearType } from "./year-types.ts";
import { longestMonth } from "../../server/core/calendar.ts";
import { DayKind, TimeType, type DaySpec } from "../../server/tz/rule-firings.ts";
import { TzParseError } from "./errors.ts";

export interface SourcePosition {
  file: string;
  line: number;
}

export interface RuleLine {
  name: string;
  /** First year; -Infinity for `minimum`. */
  from: number;
  /** Last year; Infinity for `maximum`. */
  to: number;
  month: number;
  daySpec: DaySpec;
  at: number;
  atType: TimeType;
  save: number;
  isdst: boolean;
  /** LETTER/S with `-` read as empty. */
  letters: string;
  /** TYPE: the years of FROM-TO the rule applies in (year-types.ts); null for `-`, every year. */
  yearType: YearType | null;
  pos: SourcePosition;
}

/** What a Zone line's RULES field says. */
export type ZoneRules =
  | { kind: "none" }
  | { kind: "fixed"; save: number; isdst: boolean }
  | { kind: "named"; name: string };

export interface Until {
  year: number;
  month: number;
  daySpec: DaySpec;
  at: number;
  atType: TimeType;
}

export interface ZoneLine {
  stdoff: number;
  rules: ZoneRules;
  format: string;
  until: Until | null;
  pos: SourcePosition;
}

export interface ZoneDef {
  name: string;
  lines: ZoneLine[];
  pos: SourcePosition;
}

export interface LinkDef {
  target: string;
  name: string;
  pos: SourcePosition;
}

export interface TzSource {
  rules: RuleLine[];
  zones: ZoneDef[];
  links: LinkDef[];
  /** The release named by a `# version 2026f` line (tzdata.zi), if any. */
  version: string | null;
}

const LINE_KEYWORDS = ["Rule", "Zone", "Link"];
const MONTHS = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Each keyword table in lower case, made once (this runs for every field of every release's lines). */
const loweredTables = new WeakMap<readonly string[], readonly string[]>();

/** zic's byword(): an exact (case-insensitive) match, else the one word it is a prefix of. */
export function matchKeyword(word: string, table: readonly string[]): number {
  const lower = word.toLowerCase();
  if (lower.length === 0) return -1;
  let lowered = loweredTables.get(table);
  if (lowered === undefined) {
    lowered = table.map((w) => w.toLowerCase());
    loweredTables.set(table, lowered);
  }
  const exact = lowered.indexOf(lower);
  if (exact >= 0) return exact;
  let found = -1;
  for (let i = 0; i < lowered.length; i++) {
    if (lowered[i]!.startsWith(lower)) {
      if (found >= 0) return -1; // ambiguous, e.g. `Ma` (March, May) or `Ju`
      found = i;
    }
  }
  return found;
}

/** Splits one line into fields: whitespace-separated, `"` quotes, `#` starts a comment. */
export function splitFields(text: string, fail: (reason: string) => never): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i++;
      continue;
    }
    if (c === "#") break;
    let field = "";
    while (i < text.length) {
      const d = text[i]!;
      if (d === " " || d === "\t" || d === "\r" || d === "\f" || d === "\v" || d === "#") break;
      if (d === '"') {
        const close = text.indexOf('"', i + 1);
        if (close < 0) fail("odd number of quotation marks");
        field += text.slice(i + 1, close);
        i = close + 1;
      } else {
        field += d;
        i++;
      }
    }
    fields.push(field);
  }
  return fields;
}

const TIME_PATTERN = /^(-)?(\d+)(?::(\d+)(?::(\d+)(?:\.(\d+))?)?)?$/;

/** zic's gethms(): `[-]h[:mm[:ss[.frac]]]` to seconds; a fraction rounds half to even. */
export function parseDuration(text: string, what: string, fail: (reason: string) => never): number {
  const m = TIME_PATTERN.exec(text);
  if (!m) fail(`invalid ${what} "${text}"`);
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  let seconds = m[4] === undefined ? 0 : Number(m[4]);
  if (minutes > 59 || seconds > 59) fail(`invalid ${what} "${text}"`);
  if (m[5] !== undefined) {
    const frac = Number(`0.${m[5]}`);
    if (frac > 0.5 || (frac === 0.5 && seconds % 2 === 1)) seconds += 1;
  }
  const total = hours * 3600 + minutes * 60 + seconds;
  return m[1] ? -total : total;
}

/** A time with an optional w/s/u/g/z suffix (AT and UNTIL fields). */
function parseTimeOfDay(text: string, fail: (reason: string) => never): { at: number; atType: TimeType } {
  let atType: TimeType = TimeType.Wall;
  let body = text;
  const last = text.slice(-1).toLowerCase();
  if (last === "w" || last === "s" || last === "u" || last === "g" || last === "z") {
    body = text.slice(0, -1);
    atType = last === "w" ? TimeType.Wall : last === "s" ? TimeType.Standard : TimeType.Universal;
  }
  return { at: parseDuration(body, "time of day", fail), atType };
}

/** SAVE with an optional `s` (standard, isdst=0) or `d` (daylight, isdst=1) suffix. */
function parseSave(text: string, fail: (reason: string) => never): { save: number; isdst: boolean } {
  const last = text.slice(-1).toLowerCase();
  if (last === "s" || last === "d") {
    return { save: parseDuration(text.slice(0, -1), "SAVE", fail), isdst: last === "d" };
  }
  // A lone "-" (1999g-i's Tonga and 2009u's Dhaka rules, typos fixed days later): zic's
  // gethms() reads it as 0, the host's zic as the era's (scripts/tzdb/era-zic.ts) do.
  if (text === "-") return { save: 0, isdst: false };
  const save = parseDuration(text, "SAVE", fail);
  return { save, isdst: save !== 0 };
}

function parseMonth(text: string, fail: (reason: string) => never): number {
  const i = matchKeyword(text, MONTHS);
  if (i < 0) fail(`invalid month name "${text}"`);
  return i + 1;
}

function parseWeekday(text: string, fail: (reason: string) => never): number {
  const i = matchKeyword(text, WEEKDAYS);
  if (i < 0) fail(`invalid weekday name "${text}"`);
  return i;
}

function parseDayNumber(text: string, month: number, fail: (reason: string) => never): number {
  if (!/^\d+$/.test(text)) fail(`invalid day of month "${text}"`);
  const day = Number(text);
  // zic allows Feb 29 in any year's rule; the rule simply never fires in a common year.
  if (day < 1 || day > longestMonth(month)) fail(`invalid day of month "${text}"`);
  return day;
}

/** The ON field: `5`, `lastSun`, `Sun>=8`, `Sun<=25`. */
export function parseDaySpec(text: string, month: number, fail: (reason: string) => never): DaySpec {
  if (text.length > 4 && text.slice(0, 4).toLowerCase() === "last") {
    return { kind: DayKind.LastWeekday, day: 0, weekday: parseWeekday(text.slice(4), fail) };
  }
  const geq = text.indexOf(">=");
  const leq = text.indexOf("<=");
  if (geq >= 0 || leq >= 0) {
    const split = geq >= 0 ? geq : leq;
    return {
      kind: geq >= 0 ? DayKind.WeekdayOnOrAfter : DayKind.WeekdayOnOrBefore,
      weekday: parseWeekday(text.slice(0, split), fail),
      day: parseDayNumber(text.slice(split + 2), month, fail),
    };
  }
  return { kind: DayKind.Fixed, day: parseDayNumber(text, month, fail), weekday: 0 };
}

function parseYear(text: string, fail: (reason: string) => never): number {
  if (!/^-?\d+$/.test(text)) fail(`invalid year "${text}"`);
  return Number(text);
}

function parseRule(fields: string[], pos: SourcePosition, fail: (reason: string) => never): RuleLine {
  if (fields.length !== 10) fail(`wrong number of fields on Rule line (${fields.length}, expected 10)`);
  const [, name, fromText, toText, type, inText, onText, atText, saveText, letterText] = fields as [
    string, string, string, string, string, string, string, string, string, string,
  ];
  if (name.length === 0 || /^[\d+-]/.test(name)) fail(`invalid rule name "${name}"`);
  const fromWord = matchKeyword(fromText, ["minimum", "maximum"]);
  const from = fromWord === 0 ? -Infinity : fromWord === 1 ? Infinity : parseYear(fromText, fail);
  const toWord = matchKeyword(toText, ["minimum", "maximum", "only"]);
  const to = toWord === 0 ? -Infinity : toWord === 1 ? Infinity : toWord === 2 ? from : parseYear(toText, fail);
  if (from > to) fail(`starting year ${fromText} is after ending year ${toText}`);
  const yearType = type === "-" || type === "" ? null : type;
  if (yearType !== null && !YEAR_TYPES.includes(yearType)) {
    fail(`year type "${type}" is not one we read (only ${YEAR_TYPES.join(" and ")}, the ones IANA's data used; "-" for every year)`);
  }
  // zic's own check: a type says which of several years, so one year cannot have one.
  if (yearType !== null && from === to) fail("typed single year");
  const month = parseMonth(inText, fail);
  const daySpec = parseDaySpec(onText, month, fail);
  const { at, atType } = parseTimeOfDay(atText, fail);
  const { save, isdst } = parseSave(saveText, fail);
  return { name, from, to, month, daySpec, at, atType, save, isdst, letters: letterText === "-" ? "" : letterText, yearType: yearType as YearType | null, pos };
}

function parseUntil(fields: string[], fail: (reason: string) => never): Until {
  const year = parseYear(fields[0]!, fail);
  const month = fields.length > 1 ? parseMonth(fields[1]!, fail) : 1;
  const daySpec = fields.length > 2 ? parseDaySpec(fields[2]!, month, fail) : { kind: DayKind.Fixed, day: 1, weekday: 0 };
  const time = fields.length > 3 ? parseTimeOfDay(fields[3]!, fail) : { at: 0, atType: TimeType.Wall };
  if (fields.length > 4) fail("too many fields in UNTIL");
  return { year, month, daySpec, at: time.at, atType: time.atType };
}

/** STDOFF RULES FORMAT [UNTIL...], shared by a Zone line and its continuation lines. */
function parseZoneLine(fields: string[], pos: SourcePosition, fail: (reason: string) => never): ZoneLine {
  if (fields.length < 3) fail("too few fields on Zone line (need STDOFF RULES FORMAT)");
  const stdoff = parseDuration(fields[0]!, "STDOFF", fail);
  const rulesText = fields[1]!;
  let rules: ZoneRules;
  if (rulesText === "-" || rulesText === "") rules = { kind: "none" };
  else if (/^-?\d/.test(rulesText)) rules = { kind: "fixed", ...parseSave(rulesText, fail) };
  else rules = { kind: "named", name: rulesText };
  const format = fields[2]!;
  if (format.length === 0) fail("empty FORMAT");
  if (format.includes("/") && (format.includes("%s") || format.includes("%z"))) {
    fail(`FORMAT "${format}" mixes a slash with %s or %z`);
  }
  if (/%[^sz]/.test(format.replaceAll("%%", "")) || /%$/.test(format.replaceAll("%%", ""))) {
    fail(`invalid FORMAT "${format}"`);
  }
  const until = fields.length > 3 ? parseUntil(fields.slice(3), fail) : null;
  return { stdoff, rules, format, until, pos };
}

/** Parses one file of zic input; `file` names it in errors. */
export function parseTzFile(file: string, text: string, into: TzSource): void {
  let zone: ZoneDef | null = null; // the Zone whose continuation line comes next, if any
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const pos = { file, line: index + 1 };
    const fail = (reason: string): never => {
      throw new TzParseError(file, pos.line, reason);
    };
    const raw = lines[index]!;
    if (into.version === null) {
      const version = /^#\s*version\s+(\S+)/.exec(raw);
      if (version) into.version = version[1]!;
    }
    const fields = splitFields(raw, fail);
    if (fields.length === 0) continue;
    if (zone !== null) {
      const line = parseZoneLine(fields, pos, fail);
      zone.lines.push(line);
      if (line.until === null) zone = null;
      continue;
    }
    const keyword = matchKeyword(fields[0]!, LINE_KEYWORDS);
    if (keyword === 0) {
      into.rules.push(parseRule(fields, pos, fail));
    } else if (keyword === 1) {
      if (fields.length < 5) fail("too few fields on Zone line (need NAME STDOFF RULES FORMAT)");
      const name = fields[1]!;
      validateName(name, fail);
      const line = parseZoneLine(fields.slice(2), pos, fail);
      const def: ZoneDef = { name, lines: [line], pos };
      into.zones.push(def);
      if (line.until !== null) zone = def;
    } else if (keyword === 2) {
      if (fields.length !== 3) fail(`wrong number of fields on Link line (${fields.length}, expected 3)`);
      validateName(fields[2]!, fail);
      into.links.push({ target: fields[1]!, name: fields[2]!, pos });
    } else {
      fail(`input line of unknown type "${fields[0]}"`);
    }
  }
  if (zone !== null) throw new TzParseError(file, lines.length, `zone ${zone.name} ends in a line with an UNTIL and no continuation`);
}

/** zic's namecheck(), the part that keeps a name from escaping a directory. */
function validateName(name: string, fail: (reason: string) => never): void {
  if (name.length === 0 || name.startsWith("/") || name.split("/").some((c) => c === "" || c === "." || c === "..")) {
    fail(`invalid zone name "${name}"`);
  }
}

export function parseTzSources(files: readonly { name: string; text: string }[]): TzSource {
  const into: TzSource = { rules: [], zones: [], links: [], version: null };
  for (const f of files) parseTzFile(f.name, f.text, into);
  return into;
}
