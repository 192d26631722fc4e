/* fevs/mpi/mpi_uop_scan_ok.c -- MPI_Scan and MPI_Exscan with a user operator
 * that does not commute (composition of affine maps x -> a*x + b): rank j
 * gets x0 o ... o xj (MPI_Scan) and x0 o ... o x(j-1) (MPI_Exscan; rank 0's
 * result is undefined and not read). Rank i contributes x -> 2x + i.
 *
 * Expected verdict: tass verify -n 1, 2, 3 mpi_uop_scan_ok.c: holds.
 * mpirun -np 2, 3, 4 (default and zero-buffer, ASan+UBSan): exit 0.
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
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Op op;
    MPI_Op_create(compose, 0, &op);
    int mine[2] = {2, rank}, got[2], a, b;
    MPI_Scan(mine, got, 2, MPI_INT, op, MPI_COMM_WORLD);
    expected(rank + 1, &a, &b);
    assert(got[0] == a && got[1] == b);
    MPI_Exscan(mine, got, 2, MPI_INT, op, MPI_COMM_WORLD);
    if (rank > 0) {
        expected(rank, &a, &b);
        assert(got[0] == a && got[1] == b);
    }
    MPI_Op_free(&op);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
