/* fevs/mpi/ltl_mutex_keep_bad.c: a twin of ltl_mutex_counter.c whose bug is a
 * cycle over the data: two processes pass a token around a ring, the holder
 * enters its critical section (label cs) and advances the counter l, an input
 * in 0..R-1, by l = (l + 2) % R before passing token and counter on.
 * BUG: process 0 re-enters its critical section instead of passing the token
 * while l is odd; with R even, l stays odd for odd l0, so process 0 keeps the
 * token forever and process 1 never enters (liveness of process 1 fails for
 * odd l0 only, through every odd value of l: the cycle closes by --match set,
 * and a witness must be confirmed, not read off the set).
 * With -DROUNDS=k each rank prints its critical sections and rank 0 aborts
 * the run after k of them (for concrete runs). Expected verdict: violated
 * (ltl, formula live1; witness l0 odd). */
#include <mpi.h>
#include <stdio.h>
#ifndef R
#define R 10
#endif
#pragma TASS input {0 <= l0 && l0 < R}
int l0;
int l; /* each process's copy of the counter */
#pragma TASS ltl mutex G !(PROC[0]@cs && PROC[1]@cs)
#pragma TASS ltl live1 G F PROC[1]@cs
int main(int argc, char **argv) {
  int rank, size;
#ifdef ROUNDS
  int round = 0;
#endif
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  l = l0;
  if (rank != 0)
    goto wait;
  for (;;) {
  cs:
#ifdef ROUNDS
    printf("rank %d in its critical section, l = %d\n", rank, l);
    fflush(stdout);
    if (++round == ROUNDS)
      MPI_Abort(MPI_COMM_WORLD, 0);
#endif
    l = (l + 2) % R;
    if (rank == 0 && l % 2 == 1)
      goto cs; /* BUG: process 0 keeps the token while l is odd */
    MPI_Send(&l, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
  wait:
    MPI_Recv(&l, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
