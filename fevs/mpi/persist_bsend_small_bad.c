/* fevs/mpi/persist_bsend_small_bad.c -- persist_modes_ok.c with an attached
 * buffer that has room for one int, but the MPI_Bsend_init request sends two.
 *
 * BUG: the attached buffer is one int too small for the buffered message.
 *
 * Expected verdict: tass verify -n 2 persist_bsend_small_bad.c: violated,
 *   buffer-overflow at the MPI_Startall that starts the buffered send (line 40).
 * mpirun -np 2: exit 0 -- Open MPI 4.1.4 does not check the attached
 *   buffer's room for a started MPI_Bsend_init request (its messages below the
 *   eager limit leave at once); MPI makes a buffered send that finds too
 *   little room in the attached buffer erroneous all the same. Zero-buffer:
 *   see persist_modes_ok.c (Open MPI's restart).
 */
#include <assert.h>
#include <mpi.h>
#include <stdlib.h>

#define ROUNDS 2

int main(int argc, char **argv) {
    int rank, nprocs;
    int out[4], in[4];
    MPI_Request requests[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0) {
        int size = (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char *buffer = malloc(size);
        MPI_Buffer_attach(buffer, size);
        MPI_Ssend_init(&out[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &requests[0]);
        /* BUG: two ints, and the attached buffer has room for one. */
        MPI_Bsend_init(&out[1], 2, MPI_INT, 1, 1, MPI_COMM_WORLD, &requests[1]);
        MPI_Rsend_init(&out[3], 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &requests[2]);
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < 4; k++)
                out[k] = 10 * round + k;
            MPI_Barrier(MPI_COMM_WORLD); /* receives posted; BUG: the start overflows */
            MPI_Startall(3, requests);
            MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
        }
        for (int k = 0; k < 3; k++)
            MPI_Request_free(&requests[k]);
        MPI_Buffer_detach(&buffer, &size);
        free(buffer);
    } else if (rank == 1) {
        for (int k = 0; k < 3; k++)
            MPI_Recv_init(&in[k + (k > 1)], 1 + (k == 1), MPI_INT, 0, k, MPI_COMM_WORLD,
                          &requests[k]);
        for (int round = 0; round < ROUNDS; round++) {
            MPI_Startall(3, requests);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
            for (int k = 0; k < 4; k++)
                assert(in[k] == 10 * round + k);
        }
        for (int k = 0; k < 3; k++)
            MPI_Request_free(&requests[k]);
    } else {
        for (int round = 0; round < ROUNDS; round++)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
