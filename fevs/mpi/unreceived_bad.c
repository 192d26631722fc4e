/* fevs/mpi/unreceived_bad.c -- workers send a result (tag 1) and a status word
 * (tag 2) to rank 0, which only ever receives the results.
 *
 * BUG: the status messages are never received; they stay buffered when the
 * program ends (property 11).  With buffering MPI this "works"; the status
 * words are silently lost.  (Under --deadlock potential the sends may also be
 * forced to synchronise, in which case a worker blocks forever: tass may
 * report that as a deadlock first, which is why the entry runs with
 * --deadlock none.)
 *
 * Expected verdict: tass verify -n 3 --deadlock none unreceived_bad.c
 *   violated: unreceived-message
 * Fixed twin: unreceived_ok.c.
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
    int nprocs, myrank, r, x, st, s = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        for (r = 1; r < nprocs; r++) {
            MPI_Recv(&x, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            s += x; /* BUG: the tag-2 status message from r is never received */
        }
        sum = s;
        errors = 0;
    } else {
        x = VALUE + myrank;
        st = 0;
        MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Send(&st, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
