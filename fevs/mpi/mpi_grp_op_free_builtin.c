/* fevs/mpi/mpi_grp_op_free_builtin.c -- MPI_Op_free of a predefined operator.
 *
 * BUG: MPI_SUM is not the program's to free.
 *
 * Expected verdict: tass verify -n 2 mpi_grp_op_free_builtin.c: violated,
 *   invalid-pointer at the MPI_Op_free call.
 * mpirun -np 2 (also zero-buffer): MPI_ERR_OP, the job aborts (exit non-zero).
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    MPI_Init(&argc, &argv);
    MPI_Op op = MPI_SUM;
    MPI_Op_free(&op); /* BUG: a predefined operator */
    MPI_Finalize();
    return 0;
}
