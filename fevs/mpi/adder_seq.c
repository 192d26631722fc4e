/* fevs/mpi/adder_seq.c -- sum of the n entries of an array (the sequential
 * specification of the "adder" pair, paper Sec. 1.2).
 *
 * Inputs: the bound B, 0 <= n <= B, the array a.  Output: sum.
 * Expected verdicts:
 *   tass verify adder_seq.c                                              holds
 *   tass compare --spec adder_seq.c --impl adder_par.c --impl-procs P    holds
 *   tass compare --spec adder_seq.c --impl adder_par_bad.c --impl-procs 3
 *                                                                        violated: not-equivalent
 * The paper's Fig. 10 row "adder, n <= 200, nprocs 30" is the first compare
 * with -i B=200 --impl-procs 30.
 */
#include <stdio.h>

#pragma TASS input int
#define B 10
#pragma TASS input {0 <= n && n <= B} int
#define n 10

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[n];
#pragma TASS output
double sum;

int main(void) {
    double result = 0.0;
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < n; i++)
        a[i] = i * 1.5 - 2.0;
#endif
    for (i = 0; i < n; i++)
        result += a[i];
    sum = result;
#ifdef FEVS_CONCRETE
    printf("OUT sum = %.17g\n", sum);
#endif
    return 0;
}
