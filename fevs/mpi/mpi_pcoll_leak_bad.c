/* fevs/mpi/mpi_pcoll_leak_bad.c -- every process binds a persistent barrier
 * (MPI_Barrier_init, MPI-4) and passes it R times (MPI_Start, MPI_Wait).
 *
 * BUG: the request is never freed (a persistent request stays allocated
 * until MPI_Request_free: a resource leak; no run-time symptom).
 *
 * Open MPI 4.1 provides MPI_Barrier_init as MPIX_Barrier_init in <mpi-ext.h>.
 * Expected verdict: tass verify -n 2 mpi_pcoll_leak_bad.c
 *   violated: resource-leak, the request made at the MPI_Barrier_init
 * Confirmed: mpicc -fsanitize=address,undefined, mpirun -np 2 (default and
 * zero-buffer): exit 0 (the leak has no symptom).
 * Fixed twin: mpi_pcoll_ok.c.
 */
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define MPI_Barrier_init MPIX_Barrier_init
#endif

#define R 2

int main(int argc, char *argv[]) {
    int round;
    MPI_Request bar;

    MPI_Init(&argc, &argv);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &bar); /* BUG: never freed */
    for (round = 0; round < R; round++) {
        MPI_Start(&bar);
        MPI_Wait(&bar, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
