/* fevs/mpi/lise_race.c -- the LISE paper's "race" (its Fig. 1): in each of N
 * rounds every rank but 0 sends its rank to rank 0, and rank 0 adds up
 * NPROCS - 1 messages received from MPI_ANY_SOURCE.  The claimed collective
 * invariant s == t (t = 0 + 1 + ... + NPROCS-1) looks right, but a rank may race
 * ahead into the next round and send again before some other rank's message of
 * this round arrived: rank 0 then adds a message of round r + 1 to the sum of
 * round r, and s != t at the next arrival at the loop.
 *
 * Input: N >= 0 rounds, no upper bound.
 * Expected verdict (LISE refutes it; the paper needs 823 transitions at 10 processes):
 *   tass verify -n 10 lise_race.c      violated, invariant SUM
 * Fixed twin: lise_race_fixed.c (receive from rank j in the j-th receive: holds).
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): with rank 0
 * waiting 0.2 s and ranks >= 2 waiting 0.4 s before they start, rank 0's first
 * round receives both messages of rank 1; mpirun -np 3 / -np 10, N = 2, 3, 5,
 * eager and zero-buffer (btl_tcp_eager_limit 56) modes: s = 2 != 3 (np 3),
 * s != 45 (np 10) at the second arrival; N = 0, 1: the invariant holds.
 */
#ifdef FEVS_CONCRETE
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#endif
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3

#ifdef FEVS_CONCRETE
static void pause_ms(long ms) {
    struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}
#endif

int main(int argc, char *argv[]) {
    int nprocs, myrank, x, j, round = 0, s, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    s = t = nprocs * (nprocs - 1) / 2;
#ifdef FEVS_CONCRETE
    if (myrank == 0)
        pause_ms(200);
    else if (myrank >= 2)
        pause_ms(400);
#endif
    /* BUG: the invariant fails when a message crosses a round boundary */
#pragma TASS collective invariant SUM s == t
    while (round < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP SUM %d s=%d t=%d\n", myrank, s, t);
#endif
        if (myrank == 0) {
            s = 0;
            for (j = 1; j < nprocs; j++) {
                MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                s += x;
            }
        } else {
            MPI_Send(&myrank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        round++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP SUM %d s=%d t=%d\n", myrank, s, t);
#endif
    MPI_Finalize();
    return 0;
}
