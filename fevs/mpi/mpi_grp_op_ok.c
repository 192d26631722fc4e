/* fevs/mpi/mpi_grp_op_ok.c -- a user operator made with MPI_Op_create and
 * freed with MPI_Op_free (which sets the handle to MPI_OP_NULL).
 *
 * Expected verdict: tass verify -n 2 mpi_grp_op_ok.c: holds.
 * mpirun -np 2 (also zero-buffer): exit 0.
 */
#include <assert.h>
#include <mpi.h>

void absmax(void *in, void *inout, int *len, MPI_Datatype *type) { (void)type;
    int *a = (int *)in, *b = (int *)inout;
    for (int i = 0; i < *len; i++) {
        int x = a[i] < 0 ? -a[i] : a[i];
        if (x > b[i])
            b[i] = x;
    }
}

int main(int argc, char *argv[]) {
    MPI_Init(&argc, &argv);
    MPI_Op op;
    MPI_Op_create(absmax, 1, &op);
    assert(op != MPI_OP_NULL);
    MPI_Op_free(&op);
    assert(op == MPI_OP_NULL);
    MPI_Finalize();
    return 0;
}
