/* A receive from MPI_PROC_NULL: MPI leaves its buffer unchanged, but the
 * receive still owns the buffer until the wait completes it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
    int x = 4, seen;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    seen = x; /* line 11 */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    printf("%d\n", seen);
    MPI_Finalize();
    return 0;
}
