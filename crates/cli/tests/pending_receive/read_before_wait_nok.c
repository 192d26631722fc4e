/* A read of an element of a pending MPI_Irecv's buffer, before its MPI_Wait. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
    int rank, buf[8] = {0}, out[4] = {1, 2, 3, 4}, seen;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(out, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&buf[2], 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        seen = buf[5]; /* line 14: element 3 of the receive */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        printf("%d\n", seen);
    }
    MPI_Finalize();
    return 0;
}
