/* fevs/mpi/lise_race_paper.c -- the LISE paper's "race" as its Fig. 1 shows it:
 * the loop has no condition (`while (1)`, no round counter), so it never ends.
 * In each round every rank but 0 sends its rank to rank 0, and rank 0 adds up
 * NPROCS - 1 messages received from MPI_ANY_SOURCE.  The claimed collective
 * invariant s == t (t = 0 + 1 + ... + NPROCS-1) fails when a rank races ahead
 * into the next round and sends again before another rank's message of this
 * round arrived: rank 0 then adds two messages of that rank in one round.
 * lise_race.c is the same program with a bounded loop (`while (round < N)`).
 *
 * Expected verdict (the paper refutes it with 823 transitions at 10 processes):
 *   tass verify -n 10 lise_race_paper.c      violated, invariant SUM
 * (the aligned form refuses the wildcard receive; the second run with lagged
 * loop records finds `s == t` not preserved).
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py race_paper): the
 * concrete build stops after ROUNDS rounds (the verified model loops forever);
 * with rank 0 waiting 0.2 s and ranks >= 2 waiting 0.4 s before they start,
 * rank 0's first round receives both messages of rank 1; mpirun -np 3 /
 * -np 10, ROUNDS = 3, 5, eager and zero-buffer (btl_tcp_eager_limit 56)
 * modes: s != t at the second arrival; ROUNDS = 0, 1: the invariant holds
 * (ROUNDS = 2 showed it in 3 of 4 runs: -np 10 zero-buffer once kept the
 * rounds apart, timing being what decides a race).
 */
#ifdef FEVS_CONCRETE
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#endif
#include <mpi.h>
#include <stdio.h>

#ifdef FEVS_CONCRETE
#define ROUNDS 3
static void pause_ms(long ms) {
    struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}
#endif

int main(int argc, char *argv[]) {
    int nprocs, myrank, x, j, s, t;
#ifdef FEVS_CONCRETE
    int round = 0;
#endif

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
    while (1) {
#ifdef FEVS_CONCRETE
        printf("SNAP SUM %d s=%d t=%d\n", myrank, s, t);
        if (round++ == ROUNDS)
            break;
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
    }
#ifdef FEVS_CONCRETE
    MPI_Finalize();
#endif
    return 0;
}
