/* fevs/mpi/mpi_uop_overrun.c -- a user operator whose loop runs one element
 * too far (i <= *len): it writes one int past the result buffer.
 *
 * Expected verdict: tass verify -n 2 mpi_uop_overrun.c: violated, out-of-bounds (line 19).
 * mpirun -np 2 (default and zero-buffer, -fsanitize=address): see the manifest note.
 */
#include <mpi.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
#pragma TASS output
int result;

void add(void *in, void *inout, int *len, MPI_Datatype *type) { (void)type;
    int *a = (int *)in, *b = (int *)inout;
    int i;
    for (i = 0; i < *len; i++)
        b[i] += a[i];
    if (i == *len)
        b[i] = 0; /* BUG: one past the buffer */
}

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Op op;
    MPI_Op_create((MPI_User_function *)add, 1, &op);
    int mine[2] = {rank, 1};
    int sum[2];
    MPI_Allreduce(mine, sum, 2, MPI_INT, op, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
