/* A send from an element of the buffer of a pending receive.              */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank, size, x[2] = {0, 0}, v = 5;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Irecv(&x[0], 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Send(&x[1], 1, MPI_INT, 0, 1, MPI_COMM_WORLD); /* line 15 */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
