#ifndef __TASS_UNISTD_H
#define __TASS_UNISTD_H
typedef int pid_t;
unsigned sleep(unsigned seconds);
int usleep(unsigned long usec);
pid_t getpid(void);
#endif
