/* A write to the buffer of a pending MPI_Irecv, before its MPI_Wait. */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank, x = 0, y = 7;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        x = 3; /* line 13: the receive owns x */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
