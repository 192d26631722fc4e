/* fevs/mpi/nb_halo_ok.c -- one step of a periodic 1-d three-point stencil whose
 * ghost cells are exchanged with MPI_Irecv / MPI_Isend / MPI_Waitall.
 *
 * Process r owns NL cells with the values X + r*NL + i (i = 0..NL-1), stored in
 * u[1..NL]; u[0] and u[NL+1] are ghost cells.  It posts the two receives first,
 * then the two sends, waits for all four requests and computes
 * v[i] = u[i-1] + u[i] + u[i+1] on the periodic ring of all P*NL cells.  Every
 * process sends the sum of its v to rank 0, which checks that the total is three
 * times the sum of all cells.  The tags tell the two directions apart, so the
 * exchange is right for P = 1 and P = 2 as well (left and right neighbour equal).
 * Inputs: bound BL, 1 <= NL <= BL, -8 <= X <= 8.  Output: total.
 *
 * Expected verdict: tass verify -n 3 nb_halo_ok.c   holds
 * Buggy twin: nb_halo_leak_bad.c (memory-leak: a send request is never completed).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BL 3
#pragma TASS input {1 <= NL && NL <= BL} int
#define NL 3
#pragma TASS input {-8 <= X && X <= 8} int
#define X 2

#pragma TASS output
int total;

int u[NL + 2];

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, i, local = 0, part, cells;
    MPI_Request reqs[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    left = (myrank + nprocs - 1) % nprocs;
    right = (myrank + 1) % nprocs;
    for (i = 1; i <= NL; i++)
        u[i] = X + myrank * NL + (i - 1);
    MPI_Irecv(&u[0], 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&u[NL + 1], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(&u[NL], 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(&u[1], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[3]);
    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    for (i = 1; i <= NL; i++)
        local += u[i - 1] + u[i] + u[i + 1];
    if (myrank == 0) {
        for (i = 1; i < nprocs; i++) {
            MPI_Recv(&part, 1, MPI_INT, i, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            local += part;
        }
        cells = nprocs * NL;
        total = local;
        assert(total == 3 * (cells * X + cells * (cells - 1) / 2));
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    } else {
        MPI_Send(&local, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
