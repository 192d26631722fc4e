/* fevs/mpi/mpi_alltoallw_ok.c -- MPI_Alltoallw with one basic datatype on
 * each side and displacements in bytes: every process sends the value
 * 10 * rank + j to process j (in reverse order in its send buffer) and finds
 * 10 * i + rank from every process i at slot i of its receive buffer.
 * Expected verdict: tass verify -n 3 mpi/mpi_alltoallw_ok.c: holds. */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS output
int total;
int main(int argc, char *argv[]) {
    int rank, size;
    int out[4], in[4], scounts[4], rcounts[4], sdispls[4], rdispls[4];
    MPI_Datatype stypes[4], rtypes[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int j = 0; j < size && j < 4; j++) {
        out[size - 1 - j] = 10 * rank + j;
        scounts[j] = rcounts[j] = 1;
        sdispls[j] = (int)((size - 1 - j) * sizeof(int));
        rdispls[j] = (int)(j * sizeof(int));
        stypes[j] = rtypes[j] = MPI_INT;
    }
    MPI_Alltoallw(out, scounts, sdispls, stypes, in, rcounts, rdispls, rtypes, MPI_COMM_WORLD);
    int sum = 0;
    for (int i = 0; i < size && i < 4; i++) {
        assert(in[i] == 10 * i + rank);
        sum += in[i];
    }
    MPI_Reduce(&sum, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
#ifdef FEVS_CONCRETE
    if (rank == 0)
        printf("OUT total = %d\n", total);
#endif
    MPI_Finalize();
    return 0;
}
