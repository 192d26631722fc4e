#ifndef __TASS_STDDEF_H
#define __TASS_STDDEF_H
#ifndef __TASS_SIZE_T
#define __TASS_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef NULL
#define NULL ((void*)0)
#endif
#endif
