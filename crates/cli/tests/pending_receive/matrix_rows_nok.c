/* A receive of 4 elements from &b[0][1]: it runs on into row 1, whose first
 * element is written before the wait. */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank, b[3][3] = {{0}}, v[4] = {1, 2, 3, 4};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&b[0][1], 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        b[1][1] = 9; /* line 14: flat element 4 */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
