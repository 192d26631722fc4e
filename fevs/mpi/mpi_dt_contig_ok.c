/* fevs/mpi/mpi_dt_contig_ok.c: Derived datatypes used correctly: a contiguous type of 3 MPI_INT and a
 * vector type whose blocks touch (stride = blocklength), committed, sent as
 * 2 items and received as 6 MPI_INT (the same type signature) and as the
 * derived type itself, sized, freed. mpirun -np 2 (default and zero-buffer):
 * runs clean, exit 0. Expected verdict: holds. */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, size, i;
  int a[6], b[6];
  MPI_Datatype triple, pairs;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_contiguous(3, MPI_INT, &triple);
  MPI_Type_commit(&triple);
  MPI_Type_vector(3, 2, 2, MPI_INT, &pairs);
  MPI_Type_commit(&pairs);
  MPI_Type_size(triple, &size);
  assert(size == 3 * (int)sizeof(int));
  for (i = 0; i < 6; i++) {
    a[i] = 10 * rank + i;
    b[i] = -1;
  }
  if (rank == 0) {
    MPI_Send(a, 2, triple, 1, 0, MPI_COMM_WORLD);
    MPI_Send(a, 1, pairs, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(b, 6, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 6; i++)
      assert(b[i] == i);
    MPI_Recv(a, 2, triple, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 6; i++)
      assert(a[i] == i);
  }
  MPI_Type_free(&triple);
  MPI_Type_free(&pairs);
  MPI_Finalize();
  return 0;
}
