/* fevs/mpi/comm_grid_ok.c -- row and column communicators of a 2-d process grid
 * with MPI_Comm_split, and reductions within a row and within a column (as in
 * a 2-d distributed matrix-vector product).
 *
 * The P processes form a grid with NC = 2 columns, filled row by row (rank
 * r sits at row r / NC, column r % NC; the last row is partial when P is odd).
 * Splitting MPI_COMM_WORLD by row (key = column) gives each row its own
 * communicator, in which a process's rank is its column; splitting by column
 * (key = row) gives the columns.  Each process contributes X + r; MPI_Allreduce
 * on the row communicator must give the sum over its row, on the column
 * communicator the sum over its column.  Both communicators are freed.
 * Inputs: -8 <= X <= 8.  Outputs: rowsum0 and colsum0, rank 0's row and column sums.
 *
 * Expected verdict: tass verify -n 3 comm_grid_ok.c   holds (also -n 4)
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
    MPI_Allreduce(&v, &rs, 1, MPI_INT, MPI_SUM, rowcomm);
    MPI_Allreduce(&v, &cs, 1, MPI_INT, MPI_SUM, colcomm);
    want = 0;
    for (q = row * NC; q < nprocs && q < (row + 1) * NC; q++)
        want += X + q;
    assert(rs == want);
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
