/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: a user operator (MPI_Op_create, cast to MPI_User_function *) in
  MPI_Reduce, freed with MPI_Op_free: correct.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | OK
END_MBI_TESTS
*/

#include <mpi.h>
#include <stdio.h>

void myOp(int *invec, int *inoutvec, int *len, MPI_Datatype *dtype) {
  for (int i = 0; i < *len; i++)
    inoutvec[i] = invec[i] > inoutvec[i] ? invec[i] : inoutvec[i];
}

int main(int argc, char **argv) {
  int rank, sum = -1;
  MPI_Op op;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Op_create((MPI_User_function *)myOp, 1, &op);
  MPI_Reduce(&rank, &sum, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("max rank %d\n", sum);
  MPI_Op_free(&op);
  MPI_Finalize();
  return 0;
}
