/* fevs/mpi/mpi_p2p_in_place_ok.c -- collectives with MPI_IN_PLACE: every
 * process adds its contribution into one array with MPI_Allreduce in place,
 * rank 0 gathers everyone's block into its own array in place (its block is
 * already there), and every process exchanges blocks with MPI_Alltoall in
 * place.
 * Inputs: -8 <= X <= 8.  Output: total (rank 0's sum).
 *
 * Expected verdict: tass verify -n 3 mpi_p2p_in_place_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int rank, size, i, s[2], g[4], t[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 4) {
        MPI_Finalize();
        return 0;
    }
    s[0] = X + rank;
    s[1] = 1;
    MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(s[1] == size && s[0] == size * X + size * (size - 1) / 2);
    g[rank] = X * rank;
    if (rank == 0)
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, g, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(&g[rank], 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < size; i++)
        t[i] = 10 * rank + i;
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, t, 1, MPI_INT, MPI_COMM_WORLD);
    for (i = 0; i < size; i++)
        assert(t[i] == 10 * i + rank);
    if (rank == 0) {
        total = s[0];
        for (i = 0; i < size; i++) {
            assert(g[i] == X * i);
            total += g[i];
        }
        printf("OUT total = %d\n", total);
    }
    MPI_Finalize();
    return 0;
}
