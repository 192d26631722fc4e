/* A receive from MPI_PROC_NULL, its buffer read after the wait: unchanged. */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int x = 4;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    assert(x == 4);
    MPI_Finalize();
    return 0;
}
