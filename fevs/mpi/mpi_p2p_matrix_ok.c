/* fevs/mpi/mpi_p2p_matrix_ok.c -- rank 0 fills a 3 x 3 matrix and broadcasts
 * it as one buffer of 9 doubles from &b[0][0] (C lays the rows out one after
 * the other, which is how MPI codes pass a matrix), then sends its last two
 * rows to rank 1 from &b[1][0], and rank 1 checks what it received.
 * Inputs: -8 <= X <= 8.  Output: corner (b[2][2] at rank 0).
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_matrix_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 2

#pragma TASS output
int corner;

int main(int argc, char *argv[]) {
    int rank, i, j;
    double b[3][3], c[2][3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            b[i][j] = rank == 0 ? X + 3 * i + j : -1;
    MPI_Bcast(&b[0][0], 9, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            assert(b[i][j] == X + 3 * i + j);
    if (rank == 0)
        MPI_Send(&b[1][0], 6, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1) {
        MPI_Recv(&c[0][0], 6, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(c[1][2] == X + 8);
    }
    if (rank == 0) {
        corner = (int)b[2][2];
        printf("OUT corner = %d\n", corner);
    }
    MPI_Finalize();
    return 0;
}
