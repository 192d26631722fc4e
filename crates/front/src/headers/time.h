#ifndef __TASS_TIME_H
#define __TASS_TIME_H
#ifndef NULL
#define NULL ((void*)0)
#endif
typedef long time_t;
typedef long clock_t;
#define CLOCKS_PER_SEC 1000000L
time_t time(time_t *t);
clock_t clock(void);
double difftime(time_t end, time_t start);
#endif
