/* The newlib entry points the time code calls, on the host's libc. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <reent.h>

void _tzset_unlocked_r(struct _reent *);

char *_getenv_r(struct _reent *r, const char *name) { (void)r; return getenv(name); }
void *_malloc_r(struct _reent *r, size_t n) { (void)r; return malloc(n); }
void _tzset_unlocked(void) { _tzset_unlocked_r(NULL); }

/* newlib's integer-only sscanf: the host's reads the same %hu %n %[...] conversions. */
int siscanf(const char *s, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  int n = vsscanf(s, format, ap);
  va_end(ap);
  return n;
}
