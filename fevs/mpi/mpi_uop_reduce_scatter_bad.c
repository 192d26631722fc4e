/* fevs/mpi/mpi_uop_reduce_scatter_bad.c -- a user operator (composition of
 * affine maps x -> a*x + b, associative, declared non-commutative) in
 * MPI_Reduce_scatter: rank i contributes x -> 2x + (i + j) in block j (two
 * ints per block), and rank j receives the composition of block j over the
 * ranks in rank order, x0 o x1 o ... o x(n-1). tass runs the user function
 * as program code on each receiving process.
 *
 * BUG: the check below expects the other order, x(n-1) o ... o x0, which
 * MPI does not apply to an operator declared non-commutative.
 * Expected verdict: tass verify -n 2 mpi/mpi_uop_reduce_scatter_bad.c:
 * violated, assertion at the check.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS output
int result;

/* inout = in o inout: (a, b) pairs as two ints. */
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
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);
    int mine[8], counts[4], got[2];
    for (int j = 0; j < size && j < 4; j++) {
        mine[2 * j] = 2;
        mine[2 * j + 1] = rank + j;
        counts[j] = 2;
    }
    MPI_Reduce_scatter(mine, got, counts, MPI_INT, op, MPI_COMM_WORLD);
    int a = 1, b = 0;
    for (int i = size - 1; i >= 0; i--) {
        b += (i + rank) * a;
        a *= 2;
    }
    assert(got[0] == a && got[1] == b); /* BUG: the reversed order */
    MPI_Op_free(&op);
    result = 1; /* reached the end */
#ifdef FEVS_CONCRETE
    if (rank == 0)
        printf("OUT result = %d\n", result);
#endif
    MPI_Finalize();
    return 0;
}
