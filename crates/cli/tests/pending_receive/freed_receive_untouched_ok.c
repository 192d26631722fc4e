/* MPI_Request_free on an active receive whose buffer is never used again:
 * allowed (the message arrives; the receive completes on its own). */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank, x = 0, v = 5;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
