#ifndef __TASS_STDLIB_H
#define __TASS_STDLIB_H
#include <stddef.h>
#define RAND_MAX 2147483647
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
void exit(int status);
void abort(void);
int abs(int x);
long labs(long x);
int rand(void);
void srand(unsigned seed);
int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
long random(void);
void srandom(unsigned seed);
#endif
