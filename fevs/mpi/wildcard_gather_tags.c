/* fevs/mpi/wildcard_gather_tags.c -- wildcard_gather.c with the race removed:
 * each call's messages carry the call number as their tag, so the root's
 * wildcard receive of one call never takes a message of the next.
 * Expected verdict:
 *   tass verify -n P wildcard_gather_tags.c   holds
 */
#include <mpi.h>
#include <stdlib.h>

int myrank, nprocs, call;
double *a, x;

void root(void) {
    MPI_Status status;
    int i;

    a = (double *)malloc(nprocs * sizeof(double));
    for (i = 0; i < nprocs; i++)
        a[i] = -1.0; /* no message yet */
    for (i = 1; i < nprocs; i++) {
        MPI_Recv(&x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, call, MPI_COMM_WORLD, &status);
        a[status.MPI_SOURCE] = x;
    }
#pragma TASS collective assert GATHER 1
    free(a);
}

void worker(void) {
    x = myrank;
    MPI_Send(&x, 1, MPI_DOUBLE, 0, call, MPI_COMM_WORLD);
#pragma TASS collective assert GATHER x == PROC[0].a[myrank]
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (call = 0; call < 2; call++) {
        if (myrank == 0)
            root();
        else
            worker();
    }
    MPI_Finalize();
    return 0;
}
