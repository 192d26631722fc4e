/* fevs/mpi/probe_varlen_bad.c -- the variable-length collection of
 * probe_varlen_ok.c (probe, MPI_Get_count, malloc, receive) with a receive that
 * does not name the probed source.
 *
 * Worker w sends w + K integers; rank 0 probes on MPI_ANY_SOURCE and allocates
 * a buffer of the probed length.
 * BUG: the MPI_Recv that follows uses MPI_ANY_SOURCE again instead of
 * status.MPI_SOURCE.  MPI only promises that a receive gets the probed message
 * when it names the probed source (and tag); a wildcard receive may match a
 * message of another worker that became available in between.  If that worker
 * sent a longer message, it does not fit the buffer: buffer-overflow (real MPI
 * fails with MPI_ERR_TRUNCATE).  This does happen under OpenMPI: runs with 4
 * or 8 processes abort in MPI_Recv with MPI_ERR_TRUNCATE.  Needs P >= 3 (two
 * workers).
 * Inputs: bound BK, 0 <= K <= BK, -8 <= X <= 8.  Output: total.
 *
 * Expected verdict: tass verify -n 3 probe_varlen_bad.c
 *   violated: buffer-overflow at the MPI_Recv
 * Fixed twin: probe_varlen_ok.c.
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
    int nprocs, myrank, i, j, n, m, src, flag, t, sum = 0;
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
            buf = malloc(n * sizeof(int));
            /* BUG: MPI_ANY_SOURCE instead of status.MPI_SOURCE */
            MPI_Recv(buf, n, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            MPI_Get_count(&status, MPI_INT, &m);
            src = status.MPI_SOURCE;
            assert(m == src + K);
            for (j = 0; j < m; j++) {
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
