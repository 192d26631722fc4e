/* fevs/mpi/coll_pivot_bad.c -- the pivot search of coll_pivot_ok.c
 * (MPI_Allreduce with MPI_MINLOC on MPI_2INT, then MPI_Bcast from the owner of
 * the minimum) with the broadcast root computed from the wrong pair.
 *
 * BUG: the MPI_Bcast root is the owner of loc[1], the process's own candidate,
 * not of glob[1], the reduced result: each process with a non-empty block names
 * itself, so the roots differ (collective-mismatch; MPI does not check).  Under
 * OpenMPI with 4 processes the run completes and prints ownersum = 3 (rank 0's
 * block) instead of 6 (rank 1 holds the minimum); the assertion after the
 * broadcast uses the same wrong owner and cannot notice.
 *
 * Expected verdict: tass verify -n 3 coll_pivot_bad.c
 *   violated: collective-mismatch at the MPI_Bcast
 * Fixed twin: coll_pivot_ok.c.
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
int a[N];
#pragma TASS output
int minidx;
#pragma TASS output
int ownersum;

/* the rank whose block holds global index i */
int owner_of(int i, int nprocs) {
    int r = 0;

    while (N * (r + 1) / nprocs <= i)
        r++;
    return r;
}

int block_sum(int r, int nprocs) {
    int i, s = 0;

    for (i = N * r / nprocs; i < N * (r + 1) / nprocs; i++)
        s += a[i];
    return s;
}

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, first, last, owner, s;
    int loc[2], glob[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = (i * i + 3) % 5; /* 3 4 2 2 4 3: minimum 2 at 2 and 3 */
#endif
    first = N * myrank / nprocs;
    last = N * (myrank + 1) / nprocs;
    loc[0] = a[0];
    loc[1] = 0;
    if (first < last) {
        loc[0] = a[first];
        loc[1] = first;
        for (i = first + 1; i < last; i++)
            if (a[i] < loc[0]) {
                loc[0] = a[i];
                loc[1] = i;
            }
    }
    MPI_Allreduce(loc, glob, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    assert(a[glob[1]] == glob[0]);
    for (i = 0; i < glob[1]; i++)
        assert(a[i] > glob[0]);
    owner = owner_of(loc[1], nprocs); /* BUG: loc[1] instead of glob[1] */
    s = myrank == owner ? block_sum(myrank, nprocs) : 0;
    MPI_Bcast(&s, 1, MPI_INT, owner, MPI_COMM_WORLD); /* BUG: roots differ */
    assert(s == block_sum(owner, nprocs));
    if (myrank == 0) {
        minidx = glob[1];
        ownersum = s;
#ifdef FEVS_CONCRETE
        printf("OUT minidx = %d\n", minidx);
        printf("OUT ownersum = %d\n", ownersum);
#endif
    }
    MPI_Finalize();
    return 0;
}
