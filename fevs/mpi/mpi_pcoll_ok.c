/* fevs/mpi/mpi_pcoll_ok.c -- persistent collectives (MPI-4): every process
 * binds an MPI_Bcast_init, an MPI_Allreduce_init, an MPI_Reduce_init and an
 * MPI_Barrier_init once, then in each of R rounds rank 0 broadcasts a new
 * value, every process contributes value + rank to a sum (everywhere) and a
 * maximum (at rank 0), all started with MPI_Start / MPI_Startall and
 * completed with MPI_Wait / MPI_Waitall; the requests are freed at the end.
 * Inputs: -8 <= X <= 8.  Output: total (the last sum).
 *
 * Open MPI 4.1 provides these calls as MPIX_..._init in <mpi-ext.h> (same
 * MPI-4 signatures): the block below maps the MPI names to them for mpicc.
 *
 * Expected verdict: tass verify -n 3 mpi_pcoll_ok.c   holds
 * (also with --deadlock potential).
 * Confirmed: mpicc -fsanitize=address,undefined, mpirun -np 3 (default and
 * --mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
 * btl_tcp_rndv_eager_limit 56): exit 0, OUT total = 12 for X = 2.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define MPI_Barrier_init MPIX_Barrier_init
#define MPI_Bcast_init MPIX_Bcast_init
#define MPI_Reduce_init MPIX_Reduce_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#endif

#pragma TASS input {-8 <= X && X <= 8} int
#define X 2
#define R 2

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int rank, size, round, v = 0, mine = 0, sum = 0, best = 0;
    MPI_Request reqs[3], bar;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
    MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &reqs[1]);
    MPI_Reduce_init(&mine, &best, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                    &reqs[2]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &bar);
    for (round = 0; round < R; round++) {
        if (rank == 0)
            v = X + round;
        MPI_Start(&reqs[0]);
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        mine = v + rank;
        MPI_Startall(2, &reqs[1]);
        MPI_Waitall(2, &reqs[1], MPI_STATUSES_IGNORE);
        assert(sum == size * v + size * (size - 1) / 2);
        if (rank == 0)
            assert(best == v + size - 1);
        MPI_Start(&bar);
        MPI_Wait(&bar, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Request_free(&reqs[2]);
    MPI_Request_free(&bar);
    if (rank == 0) {
        total = sum;
        printf("OUT total = %d\n", total);
    }
    MPI_Finalize();
    return 0;
}
