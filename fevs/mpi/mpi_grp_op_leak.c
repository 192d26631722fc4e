/* fevs/mpi/mpi_grp_op_leak.c -- a user operator never freed.
 *
 * BUG: `op` is not freed with MPI_Op_free.
 *
 * Expected verdict: tass verify -n 2 mpi_grp_op_leak.c: violated, resource-leak
 *   at the MPI_Op_create call.
 * mpirun -np 2 (also zero-buffer): exit 0 -- a leak has no symptom in a run.
 */
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
    MPI_Op_create(absmax, 1, &op); /* BUG: never freed */
    MPI_Finalize();
    return 0;
}
