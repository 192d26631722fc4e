/* fevs/mpi/ltl_server_any_bad.c: the manager-worker server of ltl_server.c,
 * with the manager taking the next request from any worker (MPI_ANY_SOURCE)
 * and replying to its sender. Property: every request of each worker is
 * eventually answered. BUG: MPI promises no fairness in matching a wildcard
 * receive: a weakly fair run can match worker 1's requests every time, and
 * worker 2 (its request sent, waiting for the reply) starves. A real run
 * rarely shows it by itself; `tass replay` forces the lasso's matches (a PMPI
 * layer turns each MPI_ANY_SOURCE into the sender the lasso took). With
 * -DROUNDS=k each worker stops after k replies and prints them.
 * Expected verdict: violated (ltl, formulas answered1 and answered2: either
 * worker can be the one that starves). */
#include <mpi.h>
#include <stdio.h>
int served; /* the manager's count of replies */
#pragma TASS ltl answered1 G (PROC[1]@request -> F PROC[1]@reply)
#pragma TASS ltl answered2 G (PROC[2]@request -> F PROC[2]@reply)
int main(int argc, char **argv) {
  int rank, job = 0, answer = 0;
  MPI_Status status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (;;) {
      MPI_Recv(&job, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
      answer = job + 1;
      MPI_Send(&answer, 1, MPI_INT, status.MPI_SOURCE, 1, MPI_COMM_WORLD);
      served = 1;
    }
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
