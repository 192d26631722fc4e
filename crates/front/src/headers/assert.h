#ifndef __TASS_ASSERT_H
#define __TASS_ASSERT_H
void assert(int expression);
#endif
