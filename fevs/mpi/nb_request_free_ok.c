/* fevs/mpi/nb_request_free_ok.c -- workers return results with a "fire and
 * forget" MPI_Isend whose request is released at once with MPI_Request_free.
 *
 * Rank 0 hands out NT rounds of tasks: in each round it sends every worker w
 * the task t = X + round*P + w (tag 0) and then receives the P - 1 results in
 * rank order; after the last round it sends a stop message (tag 1).  A worker
 * receives a task (MPI_ANY_TAG, so it can see the stop tag), computes t*t into
 * its result buffer, MPI_Isend's it and frees the request without waiting.
 * Reusing that buffer later is safe: the next task only arrives after the
 * manager has received the previous result, so the freed send has completed.
 * The manager checks every result and adds them up.
 * Inputs: bound BT, 1 <= NT <= BT, -8 <= X <= 8.  Output: total.
 *
 * Expected verdict: tass verify -n 3 nb_request_free_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BT 3
#pragma TASS input {1 <= NT && NT <= BT} int
#define NT 3
#pragma TASS input {-8 <= X && X <= 8} int
#define X 1

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, round, w, t, r, sum = 0, stop = 0, task, result;
    MPI_Request req;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        for (round = 0; round < NT; round++) {
            for (w = 1; w < nprocs; w++) {
                t = X + round * nprocs + w;
                MPI_Send(&t, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
            }
            for (w = 1; w < nprocs; w++) {
                MPI_Recv(&r, 1, MPI_INT, w, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t = X + round * nprocs + w;
                assert(r == t * t);
                sum += r;
            }
        }
        for (w = 1; w < nprocs; w++)
            MPI_Send(&stop, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
        total = sum;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    } else {
        for (;;) {
            MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            if (status.MPI_TAG == 1)
                break;
            result = task * task;
            MPI_Isend(&result, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &req);
            MPI_Request_free(&req);
        }
    }
    MPI_Finalize();
    return 0;
}
