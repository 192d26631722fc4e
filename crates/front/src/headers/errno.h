#ifndef __TASS_ERRNO_H
#define __TASS_ERRNO_H
/* errno is a plain global int: no library function modelled by tass sets it */
int errno;
#define EDOM 33
#define EINVAL 22
#define ERANGE 34
#endif
