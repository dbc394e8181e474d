/* Reads "TZ<TAB>unixtime" lines and answers "utoff<TAB>abbreviation<TAB>isdst" for each,
 * as the C library it is linked with sees that instant under that TZ: glibc or musl as
 * they are, or ESP-IDF's newlib time code built for the host (-DNEWLIB_HOST, see
 * newlib-shim/). The offset is computed from the broken-down local time, since newlib's
 * struct tm has no tm_gmtoff. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef NEWLIB_HOST
extern char *_tzname[2];
#endif

static long long days_from_civil(long long y, int m, int d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  long long yoe = y - era * 400;
  long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int main(void) {
  static char line[8192], previous[8192];
  static char out[1 << 16];
  setvbuf(stdout, out, _IOFBF, sizeof out);
  previous[0] = '\001';
  while (fgets(line, sizeof line, stdin)) {
    char *tab = strchr(line, '\t');
    if (!tab) { puts("ERR\tbad line\t-1"); continue; }
    *tab = 0;
    long long t = strtoll(tab + 1, NULL, 10);
    if (strcmp(line, previous) != 0) {
      setenv("TZ", line, 1);
#ifndef NEWLIB_HOST
      tzset(); /* glibc's localtime_r does not re-read TZ by itself */
#endif
      strcpy(previous, line);
    }
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm)) { puts("ERR\tlocaltime_r\t-1"); continue; }
    long long local = days_from_civil(tm.tm_year + 1900LL, tm.tm_mon + 1, tm.tm_mday) * 86400LL +
      tm.tm_hour * 3600LL + tm.tm_min * 60LL + tm.tm_sec;
#ifdef NEWLIB_HOST
    const char *abbr = _tzname[tm.tm_isdst > 0];
#else
    const char *abbr = tm.tm_zone;
#endif
    printf("%lld\t%s\t%d\n", local - t, abbr ? abbr : "", tm.tm_isdst);
  }
  fflush(stdout);
  return 0;
}
