#ifndef __TASS_STDIO_H
#define __TASS_STDIO_H
#include <stddef.h>
#define EOF (-1)
typedef struct __tass_FILE FILE;
extern FILE *stdout;
extern FILE *stderr;
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int sprintf(char *buffer, const char *format, ...);
int puts(const char *s);
int putchar(int c);
int fflush(FILE *stream);
#endif
