// Zones that still change clocks, both hemispheres, every odd rule shape: the sample the
// tz tests follow past 2100, where only the footer rules answer.

export const LONG_RANGE_ZONES = [
  "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "America/Anchorage",
  "America/Halifax", "America/St_Johns", "America/Havana", "America/Toronto", "America/Santiago",
  "America/Boise", "America/Nuuk", "America/Miquelon", "Pacific/Easter", "Pacific/Auckland",
  "Pacific/Chatham", "Pacific/Norfolk", "Australia/Sydney", "Australia/Adelaide", "Australia/Hobart",
  "Australia/Lord_Howe", "Antarctica/Troll", "Antarctica/Macquarie", "Europe/Dublin", "Europe/London",
  "Europe/Paris", "Europe/Berlin", "Europe/Helsinki", "Europe/Chisinau", "Europe/Lisbon",
  "Atlantic/Azores", "Asia/Gaza", "Asia/Hebron", "Asia/Jerusalem", "Asia/Beirut", "Africa/Cairo",
  "US/Eastern", "EST5EDT", "CET", "Canada/Newfoundland",
];
