/* fevs/mpi/persist_modes_ok.c -- persistent sends in the three other modes:
 * MPI_Ssend_init, MPI_Bsend_init (with an attached buffer) and MPI_Rsend_init,
 * each started ROUNDS times against persistent receives (MPI_Recv_init) that
 * process 1 starts before a barrier, so every ready-mode send finds its
 * receive posted, as MPI_Rsend requires.
 *
 * Expected verdict: tass verify -n 2 persist_modes_ok.c: holds (no deadlock,
 *   no request or buffer error, every request and the buffer released).
 * mpirun -np 2 and -np 3: exit 0 (default, and tcp without eager limits).
 *   With zero buffering (tcp eager limit 56) Open MPI 4.1.4 fails the assert
 *   in round 1 for the buffered message (in[1] is round 0's 1, not 11): its
 *   restarted MPI_Bsend_init request sends the data of the first start. MPI
 *   says a start reads the send buffer then (MPI-4.0 3.9), so that is Open
 *   MPI's defect, not the program's.
 */
#include <assert.h>
#include <mpi.h>
#include <stdlib.h>

#define ROUNDS 2

int main(int argc, char **argv) {
    int rank, nprocs;
    int out[3], in[3];
    MPI_Request requests[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0) {
        int size = (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char *buffer = malloc(size);
        MPI_Buffer_attach(buffer, size);
        MPI_Ssend_init(&out[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &requests[0]);
        MPI_Bsend_init(&out[1], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &requests[1]);
        MPI_Rsend_init(&out[2], 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &requests[2]);
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < 3; k++)
                out[k] = 10 * round + k;
            MPI_Barrier(MPI_COMM_WORLD); /* process 1's receives are posted */
            MPI_Startall(3, requests);
            MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
        }
        for (int k = 0; k < 3; k++)
            MPI_Request_free(&requests[k]);
        MPI_Buffer_detach(&buffer, &size);
        free(buffer);
    } else if (rank == 1) {
        for (int k = 0; k < 3; k++)
            MPI_Recv_init(&in[k], 1, MPI_INT, 0, k, MPI_COMM_WORLD, &requests[k]);
        for (int round = 0; round < ROUNDS; round++) {
            MPI_Startall(3, requests);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
            for (int k = 0; k < 3; k++)
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
