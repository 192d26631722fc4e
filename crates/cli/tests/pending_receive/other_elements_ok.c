/* Accesses outside the extent of a pending receive (the other half of the
 * array, the elements around it) before the wait, and to all of it after. */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, buf[8] = {0}, out[4] = {1, 2, 3, 4};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(out, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&buf[2], 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        buf[0] = 10;
        buf[1] = buf[0] + 1;
        buf[6] = 12;
        buf[7] = buf[6] + buf[1];
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        buf[2] = buf[2] + buf[5];
        assert(buf[2] == 5 && buf[7] == 23);
    }
    MPI_Finalize();
    return 0;
}
