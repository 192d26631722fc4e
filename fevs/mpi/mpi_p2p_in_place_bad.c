/* fevs/mpi/mpi_p2p_in_place_bad.c -- every process contributes to a maximum
 * that rank 0 computes in place with MPI_Reduce.
 *
 * BUG: the other processes pass MPI_IN_PLACE too, which MPI allows only at
 * the root of MPI_Reduce.  Open MPI stops the run with an error in
 * MPI_Reduce.
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_in_place_bad.c
 *   violated: invalid-pointer at the second MPI_Reduce line
 * Fixed twin: mpi_p2p_in_place_ok.c.
 */
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

int main(int argc, char *argv[]) {
    int rank, r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    r = X + rank;
    if (rank == 0)
        MPI_Reduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    else
        MPI_Reduce(MPI_IN_PLACE, &r, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD); /* BUG */
    MPI_Finalize();
    return 0;
}
