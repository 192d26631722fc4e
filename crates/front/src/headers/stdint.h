#ifndef __TASS_STDINT_H
#define __TASS_STDINT_H
/* The fixed-width integer types (int8_t ... uint64_t, intptr_t, uintptr_t) are
   built into tass's front end with their exact widths; this header supplies
   their limits. Signed overflow is undefined in C and not modelled as
   wrapping; unsigned types wrap modulo 2^width. */
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807l - 1)
#define INT64_MAX 9223372036854775807l
#define UINT64_MAX 18446744073709551615ul
#define SIZE_MAX 18446744073709551615ul
#endif
