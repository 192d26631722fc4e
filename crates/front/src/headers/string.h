#ifndef __TASS_STRING_H
#define __TASS_STRING_H
#ifndef __TASS_SIZE_T
#define __TASS_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef NULL
#define NULL ((void*)0)
#endif
void *memcpy(void *dest, const void *src, size_t n);
void *memset(void *dest, int c, size_t n);
size_t strlen(const char *s);
#endif
