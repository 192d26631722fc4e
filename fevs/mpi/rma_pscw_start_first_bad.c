/* fevs/mpi/rma_pscw_start_first_bad.c -- each of two processes opens its
 * access epoch to the other (MPI_Win_start) and completes it before posting
 * its own exposure epoch: BUG (deadlock: MPI_Win_start and MPI_Win_complete
 * may wait for the target's MPI_Win_post, which comes after them on both).
 * Expected verdict: tass verify -n 2 mpi/rma_pscw_start_first_bad.c:
 * violated, deadlock. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
    int rank, buf = 0;
    MPI_Group world, peer;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int other = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peer);
    MPI_Win_create(&buf, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_start(peer, 0, win); /* BUG: the peer posts only after its own start */
    MPI_Put(&rank, 1, MPI_INT, other, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_post(peer, 0, win);
    MPI_Win_wait(win);
    printf("buf = %d\n", buf);
    MPI_Win_free(&win);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
