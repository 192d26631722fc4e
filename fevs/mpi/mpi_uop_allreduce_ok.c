/* fevs/mpi/mpi_uop_allreduce_ok.c -- a user operator that is associative but
 * not commutative (composition of affine maps x -> a*x + b, declared
 * non-commutative), in MPI_Allreduce and MPI_Reduce: MPI combines the
 * contributions in rank order, x0 o x1 o ... o x(n-1). Rank i contributes
 * x -> 2x + i, so the result is x -> 2^n x + sum(i * 2^i); the other order
 * gives another b. tass runs the user function as program code.
 *
 * Expected verdict: tass verify -n 1, 2, 3 mpi_uop_allreduce_ok.c: holds.
 * mpirun -np 2 and -np 3 (default and zero-buffer, -fsanitize=address,undefined): exit 0.
 */
#include <assert.h>
#include <mpi.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
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
    int mine[2] = {2, rank};
    int all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, op, MPI_COMM_WORLD);
    int a = 1, b = 0;
    for (int i = 0; i < size; i++) {
        b += i * a;
        a *= 2;
    }
    assert(all[0] == a && all[1] == b);
    int root = size - 1, at_root[2];
    MPI_Reduce(mine, at_root, 2, MPI_INT, op, root, MPI_COMM_WORLD);
    if (rank == root)
        assert(at_root[0] == a && at_root[1] == b);
    MPI_Op_free(&op);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
