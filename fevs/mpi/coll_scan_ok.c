/* fevs/mpi/coll_scan_ok.c -- global offsets from local counts with MPI_Exscan
 * and MPI_Scan, as a parallel writer computes where each process's part of a
 * distributed array goes in a shared file.
 *
 * Process r owns c = N*(r+1)/P - N*r/P of the N elements (block distribution).
 * MPI_Exscan(c, SUM) gives its offset, the number of elements on the lower
 * ranks (undefined on rank 0, which uses 0), and MPI_Scan(c, SUM) the end of its
 * part; both must agree with the block formula.  An exclusive scan of the ranks
 * themselves must give r(r-1)/2, and an inclusive MPI_MAX scan of -r must give
 * 0 everywhere.  The last process's end is the total N.
 * Inputs: bound B, 0 <= N <= B.  Output: total (written by the last rank).
 *
 * Expected verdict: tass verify -n 3 coll_scan_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 8
#pragma TASS input {0 <= N && N <= B} int
#define N 8

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, c, off = 0, end = 0, rsum = 0, negr, mx = 1;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    c = N * (myrank + 1) / nprocs - N * myrank / nprocs;
    MPI_Exscan(&c, &off, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(&c, &end, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank == 0)
        off = 0; /* MPI_Exscan leaves rank 0's result undefined */
    assert(off == N * myrank / nprocs);
    assert(end == off + c);
    assert(end == N * (myrank + 1) / nprocs);
    MPI_Exscan(&myrank, &rsum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (myrank > 0)
        assert(rsum == myrank * (myrank - 1) / 2);
    negr = -myrank;
    MPI_Scan(&negr, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    assert(mx == 0);
    /* Outputs are per process, as every global is, and the program's output is
     * rank 0's copy: the last rank's end (the largest) reaches rank 0. */
    MPI_Reduce(&end, &total, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (myrank == 0) {
        assert(total == N);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
