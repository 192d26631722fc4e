/* fevs/mpi/coll_maxloc_ok.c -- the position of the largest entry of a
 * block-distributed vector with MPI_Allreduce(MPI_MAXLOC) on MPI_DOUBLE_INT
 * pairs (the pivot search of a distributed Gaussian elimination).
 *
 * Process r scans its block a[N*r/P .. N*(r+1)/P - 1] for its first largest
 * entry and forms the pair {value, global index}; a process with an empty
 * block (N < P) offers {a[0], 0}, a real entry, so it cannot change the result.
 * MPI_MAXLOC keeps the largest value and, among equal values, the smallest
 * index, so every process must end up with the first position of the maximum:
 * no entry is larger, and every entry before it is strictly smaller.
 * Inputs: bound B, 1 <= N <= B, the real array a[N].
 * Outputs: maxval and argmax (from rank 0).
 *
 * Expected verdict: tass verify -n 3 coll_maxloc_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 6
#pragma TASS input {1 <= N && N <= B} int
#define N 6

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double maxval;
#pragma TASS output
int argmax;

struct pair {
    double val;
    int idx;
};

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, first, last;
    struct pair loc, glob;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = (double)((i * 3) % 4) - 0.5; /* maximum 2.5 twice: at 1 and 5 */
#endif
    first = N * myrank / nprocs;
    last = N * (myrank + 1) / nprocs;
    loc.val = a[0];
    loc.idx = 0;
    if (first < last) {
        loc.val = a[first];
        loc.idx = first;
        for (i = first + 1; i < last; i++)
            if (a[i] > loc.val) {
                loc.val = a[i];
                loc.idx = i;
            }
    }
    MPI_Allreduce(&loc, &glob, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    assert(0 <= glob.idx && glob.idx < N);
    assert(a[glob.idx] == glob.val);
    for (i = 0; i < N; i++) {
        assert(a[i] <= glob.val);
        if (i < glob.idx)
            assert(a[i] < glob.val);
    }
    if (myrank == 0) {
        maxval = glob.val;
        argmax = glob.idx;
#ifdef FEVS_CONCRETE
        printf("OUT maxval = %.17g\n", maxval);
        printf("OUT argmax = %d\n", argmax);
#endif
    }
    MPI_Finalize();
    return 0;
}
