/* fevs/mpi/nb_exchange_ok.c -- pairwise exchange between partner processes
 * (0<->1, 2<->3, ...) that is safe without any MPI buffering because each
 * process posts its receive (MPI_Irecv) before its blocking MPI_Send.
 *
 * Process r's partner is r XOR 1; the last process of an odd count has none and
 * uses MPI_PROC_NULL (its send and receive then do nothing).  Each process
 * sends v = X + r*r and checks that it received its partner's value.  Even if
 * every MPI_Send waits until it is matched, the matching receive is already
 * posted, so no schedule deadlocks.
 * Inputs: -8 <= X <= 8.  Output: got0 = the value rank 0 received.
 *
 * Expected verdicts:
 *   tass verify -n 3 nb_exchange_ok.c                      holds (--deadlock potential)
 *   tass verify -n 4 nb_exchange_ok.c                      holds
 * Buggy twin: nb_exchange_bad.c (deadlock: both partners send first, blocking).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 4

#pragma TASS output
int got0;

int main(int argc, char *argv[]) {
    int nprocs, myrank, partner, v, w = -1000;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    partner = myrank ^ 1;
    if (partner >= nprocs)
        partner = MPI_PROC_NULL;
    v = X + myrank * myrank;
    MPI_Irecv(&w, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, &req);
    MPI_Send(&v, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (partner != MPI_PROC_NULL)
        assert(w == X + partner * partner);
    else
        assert(w == -1000);
    if (myrank == 0) {
        got0 = w;
#ifdef FEVS_CONCRETE
        printf("OUT got0 = %d\n", got0);
#endif
    }
    MPI_Finalize();
    return 0;
}
