/* A persistent receive started in every round; the buffer is read and
 * written between its wait and the next start only. */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, x = 0, sum = 0, round;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (round = 1; round <= 2; round++)
            MPI_Send(&round, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv_init(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        for (round = 0; round < 2; round++) {
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            sum += x;
            x = -1;
        }
        MPI_Request_free(&r);
        assert(sum == 3);
    }
    MPI_Finalize();
    return 0;
}
