#ifndef __TASS_STDBOOL_H
#define __TASS_STDBOOL_H
#define bool _Bool
#define true 1
#define false 0
#endif
