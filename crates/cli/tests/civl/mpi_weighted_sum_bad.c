/* Buggy twin of mpi_weighted_sum.c: every process contributes W * rank; process 0 checks the reduced total.
   CIVL-C annotations for the verifier; the #else branch fixes W for mpirun. */
#include <mpi.h>
#include <assert.h>
#ifdef _CIVL
#include <civlc.cvh>
$input int W;
$assume(0 <= W && W <= 4);
$output int total;
#else
#define $assert(cond, ...) assert(cond)
#define W 1
int total;
#endif

int main(int argc, char *argv[]) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = W * rank;
  MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    $assert(total == W * size * size / 2 /* bug: counts ranks 1..size */, "total %d", total);
  }
  MPI_Finalize();
  return 0;
}
