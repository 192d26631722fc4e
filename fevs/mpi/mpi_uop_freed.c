/* fevs/mpi/mpi_uop_freed.c -- a copy of a user operator's handle used after
 * MPI_Op_free freed the operator.
 *
 * Expected verdict: tass verify -n 2 mpi_uop_freed.c: violated, invalid-pointer (line 29).
 * mpirun -np 2: see the manifest note.
 */
#include <mpi.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
#pragma TASS output
int result;

void add(void *in, void *inout, int *len, MPI_Datatype *type) { (void)type;
    int *a = (int *)in, *b = (int *)inout;
    for (int i = 0; i < *len; i++)
        b[i] += a[i];
}

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Op op, copy;
    MPI_Op_create(add, 1, &op);
    copy = op;
    MPI_Op_free(&op);
    int mine = rank + 1, sum;
    /* copy names the freed operator */
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, copy, MPI_COMM_WORLD); /* BUG */
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
