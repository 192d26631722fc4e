/* As recv_init_rounds_ok.c, but the buffer is reset between the start of a
 * round and its wait. */
#include <mpi.h>

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
            MPI_Startall(1, &r);
            x = -1; /* line 17 */
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            sum += x;
        }
        MPI_Request_free(&r);
    }
    MPI_Finalize();
    return 0;
}
