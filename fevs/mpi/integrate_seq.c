/* fevs/mpi/integrate_seq.c -- the integral of f over [LO, HI] by the adaptive
 * trapezoid rule (the sequential specification of the "integrate" pair).
 *
 * [LO, HI] is cut into INTERVALS equal pieces; each piece is refined
 * recursively: when the trapezoid of the whole piece and the sum of the
 * trapezoids of its two halves differ by more than TOL, both halves are
 * refined again, down to MAXDEPTH levels.
 *
 * f is a "#pragma TASS abstract" function: tass treats it as an uninterpreted
 * function, so every refinement test is a symbolic choice and both outcomes
 * are explored.  The concrete build (FEVS_CONCRETE) gives f a body.
 * Inputs: INTERVALS >= 1, LO < HI, TOL > 0.  Output: integral.
 *
 * Expected verdicts:
 *   tass verify integrate_seq.c                                              holds
 *   tass compare --spec integrate_seq.c --impl integrate_mw.c --impl-procs P holds (P >= 2)
 * The paper's Fig. 10 row "integrate, intervals = 12, tol = 0.01, nprocs 6" is
 * the compare with -i INTERVALS=12 -i TOL=0.01 --impl-procs 6.
 */
#include <stdio.h>

#ifndef MAXDEPTH
#define MAXDEPTH 2 /* the Fig. 10 row uses -D MAXDEPTH=1, the paper's one level */
#endif

#pragma TASS input {1 <= INTERVALS} int
#define INTERVALS 2
#pragma TASS input double
#define LO 0.0
#pragma TASS input {LO < HI} double
#define HI 2.0
#pragma TASS input {TOL > 0} double
#define TOL 0.01

#pragma TASS output
double integral;

#ifdef FEVS_CONCRETE
double f(double x) { return x * x * x - 2 * x + 1; }
#else
#pragma TASS abstract
double f(double x);
#endif

double adaptive(double a, double b, double fa, double fb, int depth) {
    double m = (a + b) / 2, fm = f(m);
    double whole = (b - a) * (fa + fb) / 2;
    double halves = (m - a) * (fa + fm) / 2 + (b - m) * (fm + fb) / 2;
    double diff = whole - halves;

    /* |diff| <= TOL, written without a sign test: one choice per refinement. */
    if (depth >= MAXDEPTH || diff * diff <= TOL * TOL)
        return halves;
    return adaptive(a, m, fa, fm, depth + 1) + adaptive(m, b, fm, fb, depth + 1);
}

double piece(int i) {
    double h = (HI - LO) / INTERVALS;
    double x0 = LO + i * h, x1 = LO + (i + 1) * h;

    return adaptive(x0, x1, f(x0), f(x1), 0);
}

int main(void) {
    double total = 0.0;
    int i;

    for (i = 0; i < INTERVALS; i++)
        total += piece(i);
    integral = total;
#ifdef FEVS_CONCRETE
    printf("OUT integral = %.17g\n", integral);
#endif
    return 0;
}
