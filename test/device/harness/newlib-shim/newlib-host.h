/* Included before every newlib source: what newlib's own <time.h> and <stdio.h> declare
 * that glibc's do not. */
#define __SINGLE_THREAD__ 1
struct _reent;
extern char *_tzname[2];
extern int _daylight;
extern long _timezone;
int siscanf(const char *, const char *, ...);
