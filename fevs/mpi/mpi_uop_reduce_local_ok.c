/* fevs/mpi/mpi_uop_reduce_local_ok.c -- MPI_Reduce_local with a user
 * operator that does not commute (composition of affine maps x -> a*x + b):
 * inoutbuf = inbuf o inoutbuf, (2, 1) o (3, 5) = (6, 2*5 + 1) = (6, 11); the
 * other order would give (6, 3*1 + 5) = (6, 8).
 *
 * Expected verdict: tass verify -n 1 mpi_uop_reduce_local_ok.c: holds.
 * mpirun -np 1 and -np 2 (-fsanitize=address,undefined): exit 0.
 */
#include <assert.h>
#include <mpi.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
#pragma TASS output
int result;

void compose(void *in, void *inout, int *len, MPI_Datatype *type) { (void)type;
    int *u = (int *)in, *v = (int *)inout;
    for (int i = 0; i + 1 < *len; i += 2) {
        int a = u[i] * v[i];
        int b = u[i] * v[i + 1] + u[i + 1];
        v[i] = a;
        v[i + 1] = b;
    }
}

int main(int argc, char *argv[]) {
    MPI_Init(&argc, &argv);
    MPI_Op op;
    MPI_Op_create((MPI_User_function *)compose, 0, &op);
    int in[2] = {2, 1}, inout[2] = {3, 5};
    MPI_Reduce_local(in, inout, 2, MPI_INT, op);
    assert(inout[0] == 6);
    assert(inout[1] == 11);
    assert(in[0] == 2 && in[1] == 1);
    MPI_Op_free(&op);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
