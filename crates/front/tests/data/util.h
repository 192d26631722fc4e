/* A user header for the include test. */
#ifndef UTIL_H
#define UTIL_H
#define SQUARE(x) ((x) * (x))
static int twice(int v) { return 2 * v; }
#endif
