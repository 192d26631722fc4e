/* fevs/mpi/mpi_uop_dangling.c -- a user operator that keeps the pointer MPI
 * passes it as invec, and main reads through it after the reduction: MPI's
 * invec is only valid during the call (a temporary buffer of the library).
 *
 * Expected verdict: tass verify -n 2 mpi_uop_dangling.c: violated, invalid-pointer: a dangling pointer (line 34).
 * mpirun -np 2 (-fsanitize=address): see the manifest note.
 */
#include <mpi.h>
#include <stdio.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
#pragma TASS output
int result;

int *kept;

void add(void *in, void *inout, int *len, MPI_Datatype *type) { (void)type;
    int *a = (int *)in, *b = (int *)inout;
    kept = a;
    for (int i = 0; i < *len; i++)
        b[i] += a[i];
}

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Op op;
    MPI_Op_create(add, 1, &op);
    int mine = rank + 1, sum;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    if (kept)
        printf("%d\n", kept[0]); /* BUG: invec is gone */
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
