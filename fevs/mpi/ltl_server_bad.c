/* fevs/mpi/ltl_server_bad.c: A manager-worker server that never stops: each worker sends a request to
 * the manager (rank 0) and waits for its reply; the manager takes the workers'
 * requests in turn (1, 2, ..., 1, 2, ...) and replies. Property: every request
 * of each worker is eventually answered. BUG: the turn wraps around too
 * early (modulo size - 2), so the manager serves worker 1 only and worker 2
 * waits for its reply forever. (Receiving with MPI_ANY_SOURCE
 * instead would not do: MPI promises no fairness in matching, and tass finds
 * the weakly fair run where one worker's requests always lose.) With
 * -DROUNDS=k each worker stops after k replies and prints them. Expected verdict: violated (ltl). */
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
    int size, next = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  serve:
    MPI_Recv(&job, 1, MPI_INT, next, 0, MPI_COMM_WORLD, &status);
    answer = job + 1;
    MPI_Send(&answer, 1, MPI_INT, next, 1, MPI_COMM_WORLD);
    served = 1;
    next = next % (size - 2) + 1; /* BUG: should be size - 1 */
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
