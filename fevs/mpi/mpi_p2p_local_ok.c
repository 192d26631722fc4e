/* fevs/mpi/mpi_p2p_local_ok.c -- the local MPI calls real codes use:
 * MPI_Init_thread and MPI_Query_thread, MPI_Get_processor_name, MPI_Type_size
 * (an MPI_Aint extent), MPI_Reduce_local, and a message of MPI_LONG_DOUBLE.
 * Inputs: -8 <= X <= 8.  Output: reduced (the last element MPI_Reduce_local
 * gives at rank 0).
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_local_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1

#pragma TASS output
int reduced;

int main(int argc, char *argv[]) {
    int rank, provided, level, size, len;
    int in[3] = {X, X + 1, X + 2}, io[3] = {10, 20, 30};
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Aint extent = sizeof(double);
    long double ld[2] = {1.5L, X};

    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    assert(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE);
    MPI_Query_thread(&level);
    assert(level == provided);
    MPI_Get_processor_name(name, &len);
    assert(len > 0 && len < MPI_MAX_PROCESSOR_NAME && name[len] == 0);
    MPI_Type_size(MPI_DOUBLE, &size);
    assert(size == (int)extent);
    MPI_Type_size(MPI_INT, &size);
    assert(size == (int)sizeof(int));
    MPI_Reduce_local(in, io, 3, MPI_INT, MPI_SUM);
    assert(io[0] == 10 + X && io[2] == 32 + X);
    if (rank == 0) {
        MPI_Send(ld, 2, MPI_LONG_DOUBLE, 1, 0, MPI_COMM_WORLD);
        reduced = io[2];
        printf("OUT reduced = %d\n", reduced);
    }
    else if (rank == 1) {
        long double r[2];
        MPI_Recv(r, 2, MPI_LONG_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(r[1] == X);
    }
    MPI_Finalize();
    return 0;
}
