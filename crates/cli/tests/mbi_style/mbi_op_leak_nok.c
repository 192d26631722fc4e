/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: a user operator made by MPI_Op_create is used in MPI_Allreduce
  and never freed.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: OperatorLeak
END_MBI_TESTS
*/

#include <mpi.h>

void myOp(void *invec, void *inoutvec, int *len, MPI_Datatype *dtype) {
  int *a = invec, *b = inoutvec;
  for (int i = 0; i < *len; i++)
    b[i] += a[i];
}

int main(int argc, char **argv) {
  int rank, sum;
  MPI_Op op;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Op_create(myOp, 1, &op); /* MBIERROR */
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
