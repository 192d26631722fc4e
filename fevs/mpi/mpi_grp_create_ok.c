/* fevs/mpi/mpi_grp_create_ok.c -- a communicator of the even ranks, made from
 * a group: MPI_Comm_group, MPI_Group_incl/excl, MPI_Group_size/rank,
 * MPI_Group_translate_ranks, MPI_Comm_create (the odd ranks get
 * MPI_COMM_NULL and stay out of it), a reduction on it, and every group and
 * communicator freed.
 *
 * Expected verdict: tass verify -n 3 / -n 4 mpi_grp_create_ok.c: holds.
 * mpirun -np 3 and -np 4 (also zero-buffer): exit 0.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS output
int evensum;

int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Group world, evens, odds;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int even_ranks[2] = {0, 2};
    MPI_Group_incl(world, 2, even_ranks, &evens);
    MPI_Group_excl(world, 2, even_ranks, &odds);

    int gsize, grank, osize;
    MPI_Group_size(evens, &gsize);
    MPI_Group_rank(evens, &grank);
    MPI_Group_size(odds, &osize);
    assert(gsize == 2);
    assert(osize == size - 2);
    if (rank % 2 == 0)
        assert(grank == rank / 2);
    else
        assert(grank == MPI_UNDEFINED);

    int in_world[2] = {0, 1}, in_evens[2];
    MPI_Group_translate_ranks(world, 2, in_world, evens, in_evens);
    assert(in_evens[0] == 0 && in_evens[1] == MPI_UNDEFINED);

    MPI_Comm evencomm;
    MPI_Comm_create(MPI_COMM_WORLD, evens, &evencomm);
    if (rank % 2 == 0) {
        int r, sum;
        assert(evencomm != MPI_COMM_NULL);
        MPI_Comm_rank(evencomm, &r);
        assert(r == rank / 2);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, evencomm);
        assert(sum == 0 + 2);
        MPI_Comm_free(&evencomm);
    } else {
        assert(evencomm == MPI_COMM_NULL);
    }
    MPI_Group_free(&odds);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    assert(world == MPI_GROUP_NULL);
    if (rank == 0) {
        evensum = gsize;
#ifdef FEVS_CONCRETE
        printf("OUT evensum = %d\n", evensum);
#endif
    }
    MPI_Finalize();
    return 0;
}
