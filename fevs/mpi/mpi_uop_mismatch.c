/* fevs/mpi/mpi_uop_mismatch.c -- rank 0 reduces with its user operator, the
 * others with MPI_SUM: MPI requires the same operation on every process.
 *
 * Expected verdict: tass verify -n 2 mpi_uop_mismatch.c: violated, collective-mismatch (line 27).
 * mpirun -np 2 (default and zero-buffer): exit 0 (Open MPI does not check; the
 * result differs between the ranks).
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
    MPI_Op op;
    MPI_Op_create(add, 1, &op);
    int mine = rank + 1, sum;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, rank == 0 ? op : MPI_SUM, MPI_COMM_WORLD); /* BUG */
    MPI_Op_free(&op);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
