// The CLDR locales ICU leaves out of its data: ICU 78.2 (Node 20, CLDR 48.0, the reference)
// resolves each to another locale (az-Arab to az, be-tarask to be) or to its default (aa,
// jbo to en-US). Which locales ICU ships is ICU's own build list (icu4c/source/data/locales),
// written nowhere in CLDR's JSON: neither coverage nor zone names decide it (ICU keeps pa-Arab
// and yi, which have no zone names, and leaves out ms-Arab). Made with Node over every locale
// of cldr-dates-full (a locale left out is one whose resolvedOptions().locale differs from
// it); test/names/lang-vs-intl.test.ts asks Intl about each again, so a new CLDR or ICU shows here.

export const LOCALES_ICU_LEAVES_OUT: ReadonlySet<string> = new Set([
  "aa", "aa-DJ", "aa-ER", "ab", "an", "ann", "apc", "arn", "az-Arab", "az-Arab-IQ", "az-Arab-TR",
  "bal", "bal-Arab", "bal-Latn", "be-tarask", "bew", "bgn", "bgn-AE", "bgn-AF", "bgn-IR", "bgn-OM",
  "blt", "bm-Nkoo", "bqi", "bss", "byn", "ca-ES-valencia", "cad", "cch", "cho", "cic", "co", "cop",
  "cu", "dv", "el-polyton", "en-Dsrt", "en-Shaw", "frr", "gez", "gez-ER", "gn", "ha-Arab",
  "ha-Arab-SD", "hnj", "hnj-Hmnp", "ht", "io", "iu", "iu-Latn", "jbo", "kaa", "kaa-Cyrl", "kaa-Latn",
  "kaj", "kcg", "kek", "ken", "kpe", "kpe-GN", "ku-Arab", "ku-Arab-IR", "la", "lld", "ltg", "lzz",
  "mdf", "mhn", "mic", "mn-Mong", "mn-Mong-MN", "mni-Mtei", "moh", "ms-Arab", "ms-Arab-BN", "mus",
  "mww", "mww-Hmnp", "myv", "nb-SJ", "nr", "nv", "ny", "oka", "oka-US", "osa", "pap", "pap-AW", "pi",
  "pi-Latn", "pis", "quc", "rhg", "rhg-Rohg", "rhg-Rohg-BD", "rif", "sat-Deva", "sdh", "sdh-IQ",
  "sgs", "sid", "skr", "sma", "sma-NO", "smj", "smj-NO", "sms", "ss", "ss-SZ", "ssy", "suz",
  "suz-Deva", "suz-Sunu", "tig", "tpi", "trv", "trw", "ts", "und", "ve", "vo", "wa", "wal", "wbp",
  "zh-Latn"
]);

/**
 * A locale ICU keeps but whose zone names it reads from another: ICU's zone-name data has no
 * sr_Cyrl_ME, and its fallback drops the default script (sr_ME), which ICU aliases to
 * sr_Latn_ME. So Intl names zones in Latin for sr-Cyrl-ME (and Cyrillic for sr-Cyrl-BA).
 */
export const ZONE_NAMES_ICU_READS_FROM: ReadonlyMap<string, string> = new Map([["sr-Cyrl-ME", "sr-Latn-ME"]]);

/**
 * Locales whose GMT format ICU writes with root's hourFormat ("+HH:mm;-HH:mm"), though CLDR's
 * JSON gives them one of their own: ICU 78.2 writes vmw (Makhuwa) GMT+02:00 where CLDR 48's
 * JSON has "+H:mm;-H:mm" (GMT+2:00). The data ICU built lacks it (ICU leaves out CLDR data
 * below its draft threshold, which the JSON does not mark). Found by lang-vs-intl.test.ts,
 * which asks Intl about every locale again.
 */
export const HOUR_FORMAT_ICU_LACKS: ReadonlySet<string> = new Set(["vmw"]);
