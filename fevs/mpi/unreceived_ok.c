/* fevs/mpi/unreceived_ok.c -- workers send a result (tag 1) and a status word
 * (tag 2) to rank 0, which receives both from each worker.
 *
 * Input: VALUE.  Outputs: sum = sum of (VALUE + r) over workers r, and
 * errors = number of non-zero status words (0).
 * Expected verdict: tass verify -n 3 unreceived_ok.c   holds
 * Buggy twin: unreceived_bad.c (unreceived-message).
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define VALUE 10
#pragma TASS output
int sum;
#pragma TASS output
int errors;

int main(int argc, char *argv[]) {
    int nprocs, myrank, r, x, st, s = 0, e = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        for (r = 1; r < nprocs; r++) {
            MPI_Recv(&x, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&st, 1, MPI_INT, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            s += x;
            if (st != 0)
                e++;
        }
        sum = s;
        errors = e;
#ifdef FEVS_CONCRETE
        printf("OUT sum = %d\n", sum);
        printf("OUT errors = %d\n", errors);
#endif
    } else {
        x = VALUE + myrank;
        st = 0;
        MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(&st, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
