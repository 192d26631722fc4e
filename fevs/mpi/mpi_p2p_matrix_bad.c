/* fevs/mpi/mpi_p2p_matrix_bad.c -- rank 0 sends the lower rows of a 3 x 3
 * matrix to rank 1, starting at its middle element.
 *
 * BUG: from &b[1][1] only 5 of the matrix's 9 elements are left, but the
 * send asks for 6: it reads one element past the matrix
 * (AddressSanitizer under mpirun: stack-buffer-overflow).
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_matrix_bad.c
 *   violated: out-of-bounds at the MPI_Send line
 * Fixed twin: mpi_p2p_matrix_ok.c.
 */
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 2

int main(int argc, char *argv[]) {
    int rank, i, j;
    double b[3][3], c[6];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            b[i][j] = X + 3 * i + j;
    if (rank == 0)
        MPI_Send(&b[1][1], 6, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); /* BUG */
    else if (rank == 1)
        MPI_Recv(c, 6, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
