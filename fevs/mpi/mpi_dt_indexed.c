/* fevs/mpi/mpi_dt_indexed.c: MPI_Type_indexed: blocks {2 at 0, 1 at 4} of MPI_INT, extent 5 ints; two
 * items from a[] send a[0], a[1], a[4], a[5], a[6], a[9], received as 6
 * contiguous MPI_INT. MPI_Type_get_extent gives lb 0 and 5 * sizeof(int).
 * mpirun -np 2 (default and zero-buffer): runs clean, exit 0. Expected verdict: holds. */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, i;
  int a[10], b[6];
  int lengths[2] = {2, 1}, displacements[2] = {0, 4};
  MPI_Aint lb, extent;
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_indexed(2, lengths, displacements, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Type_get_extent(t, &lb, &extent);
  assert(lb == 0 && extent == 5 * (MPI_Aint)sizeof(int));
  for (i = 0; i < 10; i++)
    a[i] = i;
  if (rank == 0) {
    MPI_Send(a, 2, t, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(b, 6, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(b[0] == 0 && b[1] == 1 && b[2] == 4);
    assert(b[3] == 5 && b[4] == 6 && b[5] == 9);
  }
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
