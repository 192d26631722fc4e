/* fevs/mpi/comm_grid_bad.c -- the row and column reductions of comm_grid_ok.c
 * (a 2-d process grid with NC = 2 columns, communicators from MPI_Comm_split)
 * with the row reduction on the wrong communicator.
 *
 * BUG: the row sum is computed with MPI_Allreduce on MPI_COMM_WORLD instead
 * of rowcomm, so it adds up the values of the whole grid, not of the row.
 * Every process calls it, so MPI sees nothing wrong; the check of the row sum
 * fails as soon as there are two rows (P >= 3).  Real runs abort at that
 * assertion (4 processes).
 * Inputs: -8 <= X <= 8.  Outputs: rowsum0 and colsum0.
 *
 * Expected verdict: tass verify -n 3 comm_grid_bad.c
 *   violated: assertion at the check of the row sum
 * Fixed twin: comm_grid_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 5

#define NC 2

#pragma TASS output
int rowsum0;
#pragma TASS output
int colsum0;

int main(int argc, char *argv[]) {
    int nprocs, myrank, row, col, rrank, rsize, crank, csize, v, rs, cs, q, want;
    MPI_Comm rowcomm, colcomm;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    row = myrank / NC;
    col = myrank % NC;
    MPI_Comm_split(MPI_COMM_WORLD, row, col, &rowcomm);
    MPI_Comm_split(MPI_COMM_WORLD, col, row, &colcomm);
    MPI_Comm_rank(rowcomm, &rrank);
    MPI_Comm_size(rowcomm, &rsize);
    MPI_Comm_rank(colcomm, &crank);
    MPI_Comm_size(colcomm, &csize);
    assert(rrank == col && crank == row);
    assert(rsize == (nprocs - row * NC < NC ? nprocs - row * NC : NC));
    assert(csize == (nprocs - col + NC - 1) / NC);
    v = X + myrank;
    MPI_Allreduce(&v, &rs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* BUG: not rowcomm */
    MPI_Allreduce(&v, &cs, 1, MPI_INT, MPI_SUM, colcomm);
    want = 0;
    for (q = row * NC; q < nprocs && q < (row + 1) * NC; q++)
        want += X + q;
    assert(rs == want); /* BUG caught here */
    want = 0;
    for (q = col; q < nprocs; q += NC)
        want += X + q;
    assert(cs == want);
    MPI_Comm_free(&rowcomm);
    MPI_Comm_free(&colcomm);
    if (myrank == 0) {
        rowsum0 = rs;
        colsum0 = cs;
#ifdef FEVS_CONCRETE
        printf("OUT rowsum0 = %d\n", rowsum0);
        printf("OUT colsum0 = %d\n", colsum0);
#endif
    }
    MPI_Finalize();
    return 0;
}
