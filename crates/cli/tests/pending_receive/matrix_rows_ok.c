/* A receive into the middle row of a matrix; the rows around it are written
 * before the wait, the row itself after. */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, b[3][3] = {{0}}, v[3] = {1, 2, 3};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(v, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&b[1][0], 3, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        b[0][2] = 7;
        b[2][0] = 8;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        b[1][2] = b[1][2] + b[0][2] + b[2][0];
        assert(b[1][2] == 18);
    }
    MPI_Finalize();
    return 0;
}
