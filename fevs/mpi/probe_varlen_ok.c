/* fevs/mpi/probe_varlen_ok.c -- a manager receives messages of lengths it does
 * not know in advance: it probes, asks MPI_Get_count for the length, allocates
 * exactly that much and receives the probed message.
 *
 * Worker w (rank 1..P-1) sends w + K integers, the j-th being X + w*j.  Rank 0
 * takes the messages first come, first served: it polls MPI_Iprobe on
 * MPI_ANY_SOURCE up to TRIES times and falls back to the blocking MPI_Probe;
 * then MPI_Get_count gives the length, malloc a buffer of that size, and
 * MPI_Recv names the probed source and tag (status.MPI_SOURCE), so it receives
 * exactly the probed message.  It checks each message and sums everything.
 * Inputs: bound BK, 0 <= K <= BK, -8 <= X <= 8.  Output: total.
 *
 * Expected verdict: tass verify -n 3 probe_varlen_ok.c   holds
 * Buggy twin: probe_varlen_bad.c (buffer-overflow: receives from MPI_ANY_SOURCE).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define BK 2
#pragma TASS input {0 <= K && K <= BK} int
#define K 2
#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

#define TRIES 2

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, j, n, src, flag, t, sum = 0;
    int *buf;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        for (i = 1; i < nprocs; i++) {
            flag = 0;
            for (t = 0; t < TRIES && !flag; t++)
                MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &status);
            if (!flag)
                MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            MPI_Get_count(&status, MPI_INT, &n);
            src = status.MPI_SOURCE;
            assert(n == src + K);
            buf = malloc(n * sizeof(int));
            MPI_Recv(buf, n, MPI_INT, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (j = 0; j < n; j++) {
                assert(buf[j] == X + src * j);
                sum += buf[j];
            }
            free(buf);
        }
        total = sum;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    } else {
        n = myrank + K;
        buf = malloc(n * sizeof(int));
        for (j = 0; j < n; j++)
            buf[j] = X + myrank * j;
        MPI_Send(buf, n, MPI_INT, 0, 0, MPI_COMM_WORLD);
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
