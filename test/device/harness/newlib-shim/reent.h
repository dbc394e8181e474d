/* The two reentrant calls tzset_r.c makes, mapped onto the host's libc (newlib-host.c). */
#include <stddef.h>
struct _reent;
char *_getenv_r(struct _reent *, const char *);
void *_malloc_r(struct _reent *, size_t);
