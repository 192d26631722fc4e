/* fevs/mpi/ltl_bcast_ssend.c: A manager hands out work in rounds that never end: each round
 * the manager (rank 0) broadcasts which worker it chose (MPI_Bcast), sends
 * that worker a job with a synchronous send (MPI_Ssend: it returns once the
 * worker has taken the job), and all ranks meet at a barrier (MPI_Barrier)
 * before the next round. Property: every worker works infinitely often.
 * The choice goes round the workers (1, 2, ..., size - 1, 1, ...), so
 * every worker is chosen every size - 1 rounds; all ranks broadcast and meet
 * the barrier every round. With -DROUNDS=k every rank stops after k
 * rounds and the workers print their jobs. Expected verdict: holds. */
#include <mpi.h>
#include <stdio.h>
int job; /* the job a worker got last */
#pragma TASS ltl works1 G F PROC[1]@work
#pragma TASS ltl works2 G F PROC[2]@work
#pragma TASS ltl bounded G {0 <= PROC[0].job && PROC[0].job < 3}
int main(int argc, char **argv) {
  int rank, size, chosen = 0;
#ifdef ROUNDS
  int round = 0;
#endif
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (;;) {
    if (rank == 0)
      chosen = chosen % (size - 1) + 1;
    MPI_Bcast(&chosen, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      job = (job + 1) % 3;
      MPI_Ssend(&job, 1, MPI_INT, chosen, 0, MPI_COMM_WORLD);
    } else if (rank == chosen) {
      MPI_Recv(&job, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    work:
      job = job * 2 % 3;
#ifdef ROUNDS
      printf("rank %d works on job %d\n", rank, job);
      fflush(stdout);
#endif
    }
    MPI_Barrier(MPI_COMM_WORLD);
#ifdef ROUNDS
    if (++round >= ROUNDS)
      break;
#endif
  }
  MPI_Finalize();
  return 0;
}
