/* fevs/mpi/nb_halo_leak_bad.c -- the stencil step of nb_halo_ok.c (periodic 1-d
 * three-point stencil, ghost cells exchanged with MPI_Irecv / MPI_Isend) with
 * one request that is never completed.
 *
 * BUG: MPI_Waitall is given 3 requests instead of 4, so the request of the
 * MPI_Isend to the left neighbour (reqs[3]) is never waited for, tested or
 * freed: a request leak (tass reports it as memory-leak at the MPI_Isend).  The
 * message itself is still delivered, so the output is right and real MPI does
 * not complain (OpenMPI lets MPI_Finalize pass with an active request): the
 * concrete run prints total = 270 with 4 processes, just like the correct twin.
 * In a long-running code each step leaks one request object.
 * Inputs: bound BL, 1 <= NL <= BL, -8 <= X <= 8.  Output: total.
 *
 * Expected verdict: tass verify -n 3 nb_halo_leak_bad.c
 *   violated: memory-leak at the leaked MPI_Isend
 * Fixed twin: nb_halo_ok.c.
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
    MPI_Isend(&u[1], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[3]); /* BUG: never completed */
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
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
