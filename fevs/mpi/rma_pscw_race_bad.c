/* fevs/mpi/rma_pscw_race_bad.c -- processes 1 and 2 both put their rank into
 * process 0's one-int window in the same exposure epoch of process 0
 * (MPI_Win_post for both): BUG (rma-race: the result depends on which put
 * lands last).
 * Expected verdict: tass verify -n 3 mpi/rma_pscw_race_bad.c: violated,
 * rma-race at the put. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
    int rank, x = 0;
    MPI_Group world, origins, target;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int two[2] = {1, 2}, zero = 0;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, two, &origins);
    MPI_Group_incl(world, 1, &zero, &target);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_post(origins, 0, win);
        MPI_Win_wait(win);
        printf("x = %d\n", x);
    } else {
        MPI_Win_start(target, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* BUG: both origins write x */
        MPI_Win_complete(win);
    }
    MPI_Win_free(&win);
    MPI_Group_free(&origins);
    MPI_Group_free(&target);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
