/* fevs/mpi/mpi_dt_tag_symbolic.c: The tag is computed from an input: T - 3 is negative for T < 3, an error
 * for some inputs (mpi-tag, line 17). mpirun -np 2 of the program as it is
 * (T = 0, tag -4), default and zero-buffer: OpenMPI aborts in MPI_Send with
 * MPI_ERR_TAG: invalid tag. Expected verdict: violated (mpi-tag). */
#include <mpi.h>
#pragma TASS input {0 <= T && T <= 8}
int T;
int main(int argc, char **argv) {
  int rank, buf = 0, tag;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  tag = T - 3;
  if (tag < 0)
    tag = tag - 1; /* a negative tag stays negative (never MPI_ANY_TAG) */
  if (rank == 0) {
    buf = 7;
    MPI_Send(&buf, 1, MPI_INT, 1, tag, MPI_COMM_WORLD); /* BUG: the tag may be negative */
  } else if (rank == 1) {
    MPI_Recv(&buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
