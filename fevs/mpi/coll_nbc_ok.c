/* fevs/mpi/coll_nbc_ok.c -- nonblocking collectives overlapped with local work:
 * MPI_Ibcast of a parameter, MPI_Igather of the results, MPI_Ibarrier before
 * the report, each completed with MPI_Wait.
 *
 * Rank 0 owns the scale S and starts broadcasting it; meanwhile every process
 * prepares its local value w = X + r*r.  After the broadcast completes each
 * process computes S*w; rank 0 gathers these with MPI_Igather (one int per
 * process, into a malloc'ed array), checks every entry while the others pass
 * an MPI_Ibarrier, and reports their sum.
 * Inputs: -8 <= X <= 8, -4 <= S <= 4.  Output: total (rank 0).
 *
 * Expected verdict: tass verify -n 3 coll_nbc_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 2
#pragma TASS input {-4 <= S && S <= 4} int
#define S 3

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, r, s = 0, w, res, sum = 0;
    int *all = NULL;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0)
        s = S;
    MPI_Ibcast(&s, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    w = X + myrank * myrank;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    assert(s == S);
    res = s * w;
    if (myrank == 0)
        all = malloc(nprocs * sizeof(int));
    MPI_Igather(&res, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (myrank == 0) {
        for (r = 0; r < nprocs; r++) {
            assert(all[r] == S * (X + r * r));
            sum += all[r];
        }
        free(all);
    }
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (myrank == 0) {
        total = sum;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
