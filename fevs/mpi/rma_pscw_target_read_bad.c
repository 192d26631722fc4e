/* fevs/mpi/rma_pscw_target_read_bad.c -- process 0 puts 42 into process 1's
 * window in an access epoch of MPI_Win_start; process 1 reads that memory
 * before its MPI_Win_wait: BUG (local-concurrency: the put may land at any
 * moment of the exposure epoch).
 * Expected verdict: tass verify -n 2 mpi/rma_pscw_target_read_bad.c:
 * violated, local-concurrency at the read. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
    int rank, buf = 0, value = 42, seen;
    MPI_Group world, peer;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int other = 1 - rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peer);
    MPI_Win_create(&buf, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_start(peer, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win); /* BUG: lands while process 1 reads buf */
        MPI_Win_complete(win);
    } else {
        MPI_Win_post(peer, 0, win);
        seen = buf; /* BUG: the window memory is exposed until MPI_Win_wait */
        MPI_Win_wait(win);
        printf("seen %d, then %d\n", seen, buf);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
