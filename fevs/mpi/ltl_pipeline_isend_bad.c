/* fevs/mpi/ltl_pipeline_isend_bad.c: A pipeline that never stops, with nonblocking messages: the
 * producer (rank 0) sends items 0, 1, 2, 3, 0, ... to the relay (rank 1)
 * with MPI_Isend and waits for the relay's acknowledgement before the next
 * (MPI_Recv, then MPI_Wait on the send); the relay posts MPI_Irecv and waits
 * for it with MPI_Wait, acknowledges the item, and forwards it
 * to the consumer (rank 2) with MPI_Issend and MPI_Wait (synchronous, so the
 * relay never runs ahead of the consumer by more than an item); the consumer takes
 * each item with MPI_Recv. Property: the consumer sees item 3 infinitely
 * often. BUG: the relay drops item 3 instead of forwarding it, so the
 * consumer gets 0, 1, 2, 0, 1, 2, ... and never 3. With -DROUNDS=k the
 * producer sends k items (then -1, which stops everybody) and the consumer
 * prints what it gets. Expected verdict: violated (ltl). */
#include <mpi.h>
#include <stdio.h>
int got; /* the consumer's last item */
#pragma TASS ltl sees3 G F {PROC[2].got == 3}
#pragma TASS ltl consumes G F PROC[2]@consume
int main(int argc, char **argv) {
  int rank, item = 0, ack = 0;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
#ifdef ROUNDS
    int sent = 0;
#endif
    for (;;) {
#ifdef ROUNDS
      if (sent++ == ROUNDS)
        item = -1;
#endif
      MPI_Isend(&item, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
      MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
#ifdef ROUNDS
      if (item < 0)
        break;
#endif
      item = (item + 1) % 4;
    }
  } else if (rank == 1) {
    for (;;) {
      MPI_Irecv(&item, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      MPI_Send(&ack, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
      if (item != 3) { /* BUG: item 3 is dropped */
        MPI_Issend(&item, 1, MPI_INT, 2, 2, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      }
#ifdef ROUNDS
      if (item < 0)
        break;
#endif
    }
  } else if (rank == 2) {
    for (;;) {
      MPI_Recv(&got, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    consume:
#ifdef ROUNDS
      printf("consumer got %d\n", got);
      fflush(stdout);
      if (got < 0)
        break;
#endif
      got = got + 0;
    }
  }
  MPI_Finalize();
  return 0;
}
