/* tass.h: built-ins of tass usable from C. The same file compiles with gcc
   (copy it next to the program, or pass -I to its folder: fevs/include). */
#ifndef __TASS_H
#define __TASS_H
#ifdef __TASS__
/* 1 when a < b, else 0, without a branch: at --arith herbrand|ieee the value of
   an uninterpreted comparison (comparative symbolic execution paper, Sec. 4.2.4). */
int delta(double a, double b);
#else
static inline int delta(double a, double b) { return a < b ? 1 : 0; }
#endif
#endif
