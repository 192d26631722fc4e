/* fevs/mpi/ltl_mutex_counter_bad.c: The experiment of the paper on explicit control and symbolic data, in
 * C/MPI: two processes pass a token around a ring; the one holding it enters
 * its critical section (label cs), advances the shared counter l, an input in
 * 0..R-1, by l = (l + 1) % R, and passes token and counter on. Properties:
 * mutual exclusion (safety), each process enters its critical section
 * infinitely often (liveness), and the counter stays in 0..R-1. The program
 * never terminates; with -DROUNDS=k each process stops after k critical
 * sections and prints them (for concrete runs). R is a macro: -DR=100.
 * BUG: process 1 keeps the token when its advanced counter is odd, which
 * (R even, two processes) happens in every round for odd l0 only. Expected verdict: violated (ltl). */
#include <mpi.h>
#include <stdio.h>
#ifndef R
#define R 10
#endif
#pragma TASS input {0 <= l0 && l0 < R}
int l0;
int l; /* each process's copy of the counter */
#pragma TASS ltl mutex G !(PROC[0]@cs && PROC[1]@cs)
#pragma TASS ltl live0 G F PROC[0]@cs
#pragma TASS ltl live1 G F PROC[1]@cs
#pragma TASS ltl counter G {0 <= PROC[1].l && PROC[1].l < R}
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
    l = (l + 1) % R;
    if (rank == 1 && l % 2 == 1) {
    hold: /* BUG: the token is never passed on */
      goto hold;
    }
#ifdef ROUNDS
    printf("rank %d in its critical section, l = %d\n", rank, l);
    fflush(stdout);
#endif
    MPI_Send(&l, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
#ifdef ROUNDS
    if (++round == ROUNDS)
      break;
#endif
  wait:
    MPI_Recv(&l, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
