/* The message of the MPI_Irecv has surely been matched (rank 0's MPI_Ssend
 * returned before it sent the second message, which rank 1 has received),
 * but the receive is not complete until its wait: reading x is erroneous. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
    int rank, x = 0, y = 0, one = 1, two = 2, seen;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ssend(&one, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(&two, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        seen = x; /* line 18 */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        printf("%d %d\n", seen, y);
    }
    MPI_Finalize();
    return 0;
}
