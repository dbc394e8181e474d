/* newlib's _ansi.h: nothing the time code needs on a host. */
