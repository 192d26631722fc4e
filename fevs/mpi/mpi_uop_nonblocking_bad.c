/* fevs/mpi/mpi_uop_nonblocking_bad.c -- nonblocking reductions with a user
 * operator that does not commute (composition of affine maps x -> a*x + b):
 * MPI_Iallreduce and MPI_Iscan completed together by MPI_Waitall, then
 * MPI_Ireduce to rank 0 completed by an MPI_Test loop. Rank i contributes
 * x -> 2x + i; the results must be in rank order (x0 o x1 o ...). This
 * program checks MPI_Iscan's result as if it excluded the caller's own
 * contribution (as MPI_Iexscan does).
 *
 * Expected verdict: tass verify -n 2 mpi_uop_nonblocking_bad.c: violated,
 * assertion (line 54). mpirun -np 1, 2, 3 (default and zero-buffer): assertion failure.
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

/* x0 o ... o x(upto-1) for contributions x -> 2x + i. */
static void expected(int upto, int *a, int *b) {
    *a = 1;
    *b = 0;
    for (int i = 0; i < upto; i++) {
        *b += i * *a;
        *a *= 2;
    }
}

int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);
    int mine[2] = {2, rank}, all[2], scan[2], root[2] = {0, 0}, a, b, done = 0;
    MPI_Request reqs[2];
    MPI_Iallreduce(mine, all, 2, MPI_INT, op, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iscan(mine, scan, 2, MPI_INT, op, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    expected(size, &a, &b);
    assert(all[0] == a && all[1] == b);
    expected(rank, &a, &b);
    assert(scan[0] == a && scan[1] == b); /* BUG: MPI_Iscan includes the caller */
    MPI_Ireduce(mine, root, 2, MPI_INT, op, 0, MPI_COMM_WORLD, &reqs[0]);
    while (!done)
        MPI_Test(&reqs[0], &done, MPI_STATUS_IGNORE);
    if (rank == 0) {
        expected(size, &a, &b);
        assert(root[0] == a && root[1] == b);
    }
    MPI_Op_free(&op);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
