/* fevs/mpi/lise_race_fixed.c -- lise_race.c with the race removed: rank 0's
 * j-th receive of a round names rank j as the source, so the messages of one
 * round are never mixed with those of the next (MPI keeps each sender's
 * messages in order).  Every round rank 0 adds 1 + ... + NPROCS-1, so the
 * collective invariant s == t holds on every arrival, for every N (with
 * round == PROC[0]@main.round: every rank's k-th arrival is in the same round,
 * which tass needs to know that all ranks leave the loop together).
 *
 * Input: N >= 0 rounds, no upper bound.
 * Expected verdict: tass verify -n 10 lise_race_fixed.c    holds
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): the same delays
 * as lise_race.c, mpirun -np 3 / -np 10, N = 0, 1, 2, 5, eager and zero-buffer
 * modes: s == t at every arrival of every rank.
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
#pragma TASS collective invariant SUM s == t && round == PROC[0]@main.round
    while (round < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP SUM %d s=%d t=%d round=%d\n", myrank, s, t, round);
#endif
        if (myrank == 0) {
            s = 0;
            for (j = 1; j < nprocs; j++) {
                MPI_Recv(&x, 1, MPI_INT, j, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                s += x;
            }
        } else {
            MPI_Send(&myrank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        round++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP SUM %d s=%d t=%d round=%d\n", myrank, s, t, round);
#endif
    MPI_Finalize();
    return 0;
}
