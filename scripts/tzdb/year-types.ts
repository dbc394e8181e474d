// Rule year types (a Rule line's TYPE field other than "-"): zic applied such a rule only in
// the years its `yearistype` script said were of that type. IANA's data used two, in South
// Australia's rules until 2000f (`Rule AS 1990 1994 even ...` and its `odd` twin); zic
// refuses TYPE since 2020b. The releases' yearistype.sh (92c through 2000e) reads the year's
// last decimal digit:
//
//   2-even)  case $1 in *[24680]) exit 0 ;; *) exit 1 ;; esac ;;
//   2-odd)   case $1 in *[13579]) exit 0 ;; *) exit 1 ;; esac ;;
//
// which is the year's parity, negative years included ("-3" ends in 3). From 96k the script
// also knew `uspres` and `nonpres` (US presidential election years), which no release's data
// used: we read only the two that were used, and refuse any other.

export type YearType = "even" | "odd";

export const YEAR_TYPES: readonly string[] = ["even", "odd"];

/** Whether the release's yearistype.sh says `year` is of `type` (null: the rule has none, every year). */
export function yearIsType(year: number, type: YearType | null): boolean {
  if (type === null) return true;
  const even = year % 2 === 0;
  return type === "even" ? even : !even;
}
