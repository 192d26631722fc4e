/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: in one fence epoch, rank 0 adds to rank 0's counter with
  MPI_Fetch_and_op(MPI_SUM) while rank 1 overwrites it with MPI_Put: a race
  between processes on window memory.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: GlobalConcurrency
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, counter = 0, one = 1, old;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_create(&counter, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  if (rank == 0)
    MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win);
  else
    MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* MBIERROR */
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
