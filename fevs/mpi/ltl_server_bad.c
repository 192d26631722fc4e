/* A manager-worker server that never stops: each worker sends a request to
 * the manager (rank 0) and waits for its reply; the manager receives requests
 * from any worker (MPI_ANY_SOURCE) and replies to the sender. Property: every
 * request of each worker is eventually answered. BUG: the manager answers
 * worker 2 only when its job is 0, so worker 2 waits forever after its first
 * reply. With -DROUNDS=k each worker
 * stops after k replies and prints them (for concrete runs). */
#include <mpi.h>
#include <stdio.h>
int served; /* the manager's count of replies */
#pragma TASS ltl answered1 G (PROC[1]@request -> F PROC[1]@reply)
#pragma TASS ltl answered2 G (PROC[2]@request -> F PROC[2]@reply)
#pragma TASS ltl serves_forever G F {PROC[0].served > 0}
int main(int argc, char **argv) {
  int rank, job = 0, answer = 0;
  MPI_Status status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
  serve:
    MPI_Recv(&job, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
    answer = job + 1;
    if (status.MPI_SOURCE != 2 || job == 0) /* BUG: drops some requests */
      MPI_Send(&answer, 1, MPI_INT, status.MPI_SOURCE, 1, MPI_COMM_WORLD);
    served = 1;
    goto serve;
  }
  for (;;) {
  request:
    MPI_Send(&job, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(&answer, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  reply:
    job = answer % 3;
#ifdef ROUNDS
    printf("rank %d got reply %d\n", rank, answer);
    fflush(stdout);
    if (answer > ROUNDS)
      break;
#endif
  }
  MPI_Finalize();
  return 0;
}
