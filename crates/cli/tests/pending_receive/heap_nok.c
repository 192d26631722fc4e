/* A receive into elements 2..3 of a heap block: element 0 may be written
 * before the wait, element 3 may not. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char *argv[]) {
    int rank, v[2] = {1, 2};
    int *p = malloc(4 * sizeof(int));
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(v, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(p + 2, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        p[0] = 5;
        p[3] = 6; /* line 17 */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    free(p);
    MPI_Finalize();
    return 0;
}
