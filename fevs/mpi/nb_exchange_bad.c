/* fevs/mpi/nb_exchange_bad.c -- the pairwise exchange of nb_exchange_ok.c
 * (partners r and r XOR 1 swap a value) written with blocking calls only.
 *
 * BUG: both partners call MPI_Send before MPI_Recv.  MPI may complete a
 * standard send only once the matching receive is posted (it need not buffer),
 * and then both partners wait in MPI_Send forever.  OpenMPI buffers such small
 * messages eagerly, so real runs pass (got0 = 5 with X = 4); the standard does
 * not promise it, and larger messages do hang.  tass explores the unbuffered
 * completion under the default --deadlock potential.
 * Inputs: -8 <= X <= 8.  Output: got0 = the value rank 0 received.
 *
 * Expected verdicts:
 *   tass verify -n 2 nb_exchange_bad.c                       violated: deadlock
 *   tass verify -n 2 --deadlock absolute nb_exchange_bad.c   holds
 * Fixed twin: nb_exchange_ok.c.
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

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    partner = myrank ^ 1;
    if (partner >= nprocs)
        partner = MPI_PROC_NULL;
    v = X + myrank * myrank;
    MPI_Send(&v, 1, MPI_INT, partner, 0, MPI_COMM_WORLD); /* BUG: both partners send first */
    MPI_Recv(&w, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
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
