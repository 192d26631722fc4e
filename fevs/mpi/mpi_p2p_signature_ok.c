/* fevs/mpi/mpi_p2p_signature_ok.c -- rank 0 sends 4 ints as 4 x MPI_INT and
 * then as 2 x MPI_2INT; rank 1 receives the first as 2 x MPI_2INT pairs and
 * the second as 4 x MPI_INT.  MPI matches type signatures, not datatype
 * names: both are {int, int, int, int}.
 * Inputs: -8 <= X <= 8.  Output: last (the last int sent).
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_signature_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1

#pragma TASS output
int last;

struct pair {
    int value, index;
};

int main(int argc, char *argv[]) {
    int rank, i, v[4], w[4];
    struct pair p[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (i = 0; i < 4; i++)
            v[i] = X + i;
        MPI_Send(v, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(v, 2, MPI_2INT, 1, 1, MPI_COMM_WORLD);
        last = v[3];
        printf("OUT last = %d\n", last);
    } else if (rank == 1) {
        MPI_Recv(p, 2, MPI_2INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(p[0].value == X && p[0].index == X + 1 && p[1].index == X + 3);
        MPI_Recv(w, 4, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(w[2] == X + 2);
    }
    MPI_Finalize();
    return 0;
}
