/* MPI_Request_free on a receive that no message ever matches: the receive
 * never completes, which MPI forbids at MPI_Finalize (a request leak). */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank, x = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r); /* line 11 */
        MPI_Request_free(&r);
    }
    MPI_Finalize();
    return 0;
}
