/* fevs/mpi/wildcard_gather.c -- a gather written with a wildcard receive at the
 * root, called twice (after the "Collective assertions" paper, Sec. 4.4).
 *
 * Each worker sends its rank to the root; the root takes the messages in
 * whatever order they come and files each under its sender's rank.  The
 * collective assertion says that, at each call, the root's entry for every
 * worker holds what that worker sent.  It holds on every execution in which
 * the processes meet at the assertion (a barrier there), but not on all:
 * a worker may send for the second call while the root is still in the first,
 * whose wildcard receive then takes that second message; another worker's
 * first message stays unreceived and its entry keeps -1 ("no message yet").
 * (The paper leaves the entries as malloc gives them; tass would report the
 * read of such an entry as uninitialised before the assertion fails.)
 * Expected verdicts:
 *   tass verify -n 3 wildcard_gather.c        collective-assertion (line of the BUG)
 *   tass verify -n 3 wildcard_gather_tags.c   holds
 */
#include <mpi.h>
#include <stdlib.h>

int myrank, nprocs;
double *a, x;

void root(void) {
    MPI_Status status;
    int i;

    a = (double *)malloc(nprocs * sizeof(double));
    for (i = 0; i < nprocs; i++)
        a[i] = -1.0; /* no message yet */
    for (i = 1; i < nprocs; i++) {
        MPI_Recv(&x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
        a[status.MPI_SOURCE] = x;
    }
#pragma TASS collective assert GATHER 1
    free(a);
}

void worker(void) {
    x = myrank;
    MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    /* BUG: the root may have filed this worker's next message in this call */
#pragma TASS collective assert GATHER x == PROC[0].a[myrank]
}

int main(int argc, char **argv) {
    int i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (i = 0; i < 2; i++) {
        if (myrank == 0)
            root();
        else
            worker();
    }
    MPI_Finalize();
    return 0;
}
