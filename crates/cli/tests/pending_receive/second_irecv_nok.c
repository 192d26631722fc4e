/* Two receives posted into overlapping buffers. */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank, x[3] = {0, 0, 0}, v[2] = {5, 6};
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(v, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(v, 2, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&x[0], 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&x[1], 2, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[1]); /* line 14 */
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
