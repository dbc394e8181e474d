// `?lang=` to a CLDR locale: BCP 47 parsing, CLDR's fallback chain (truncation), a
// region's script (zh-TW is Traditional), and the refusals.

import { expect, test } from "bun:test";
import { resolveLocale } from "../../server/names/locale-tag.ts";
import { NamesInputError } from "../../server/names/names-errors.ts";
import { testNamer } from "../support/names-table.ts";

const names = (await testNamer()).names;

test.each([
  ["de", "de"], ["DE", "de"], ["de-AT", "de-AT"], ["de-at", "de-AT"], ["de_AT", "de-AT"], ["de-AT-1996", "de-AT"],
  ["de-CH-u-co-phonebk", "de-CH"], ["de-x-private", "de"], ["de-LI", "de-LI"], ["de-US", "de"],
  ["zh-Hant", "zh-Hant"], ["zh-TW", "zh-Hant"], ["zh-HK", "zh-Hant-HK"], ["zh-CN", "zh"], ["zh", "zh"],
  ["sr-ME", "sr-Latn-ME"], ["sr-Latn", "sr-Latn"], ["pt-BR", "pt"], ["pt-PT", "pt-PT"], ["es-419", "es-419"], ["es-MX", "es-MX"],
  ["en-US", "en"], ["en-GB", "en-GB"], ["sw", "sw"],
])("%s -> %s", (tag, expected) => {
  expect(resolveLocale(names, tag).tag).toBe(expected);
});

test.each(["", "x-", "x-foo", "xx", "qaa", "de--AT", "1234", "de-", "-de", "de AT", "d", `${"de-".repeat(30)}de`, "de-AT\u0000", "ü"])(
  "%p is refused with a 400",
  (tag) => {
    let error: unknown;
    try {
      resolveLocale(names, tag);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NamesInputError);
    expect((error as NamesInputError).status).toBe(400);
  },
);
