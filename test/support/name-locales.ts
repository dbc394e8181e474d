// The 30 locales the names are compared with ICU in (test/names/): every script and
// numbering system CLDR's big locales use, regional variants, right-to-left ones.
export const NAME_LOCALES = ["de", "fr", "ja", "zh-Hant", "ar", "hi", "ru", "pt-BR", "es-419", "sw",
  "en", "en-GB", "es", "it", "ko", "zh", "tr", "pl", "nl", "sv", "fa", "he", "th", "id", "vi", "uk", "el", "bn", "ar-EG", "mr"];
