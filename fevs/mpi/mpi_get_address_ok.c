/* fevs/mpi/mpi_get_address_ok.c -- a struct datatype whose displacements
 * come from MPI_Get_address, as most MPI codes build them. A helper takes
 * the address of a local struct and of each of its fields, subtracts the
 * struct's address with MPI_Aint_diff, and builds {MPI_INT, 2 x MPI_DOUBLE,
 * MPI_CHAR} with MPI_Type_create_struct. Rank 0 sends a record with it and
 * rank 1 receives it into another struct. tass does not know where the
 * struct lies in memory (its address is an unknown), but the differences of
 * addresses inside it are its byte offsets, whatever the address.
 *
 * Expected verdict: tass verify -n 2 mpi_get_address_ok.c: holds.
 * mpirun -np 2 (default and zero-buffer, ASan+UBSan): exit 0.
 */
#include <mpi.h>
#include <assert.h>

struct particle {
    int id;
    double pos[2];
    char tag;
};

static MPI_Datatype particle_type(void) {
    struct particle p = {0, {0.0, 0.0}, 0};
    MPI_Aint base, displs[3];
    int lengths[3] = {1, 2, 1};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t;
    MPI_Get_address(&p, &base);
    MPI_Get_address(&p.id, &displs[0]);
    MPI_Get_address(&p.pos[0], &displs[1]);
    MPI_Get_address(&p.tag, &displs[2]);
    for (int i = 0; i < 3; i++)
        displs[i] = MPI_Aint_diff(displs[i], base);
    MPI_Type_create_struct(3, lengths, displs, types, &t);
    MPI_Type_commit(&t);
    return t;
}

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype t = particle_type();
    struct particle q = {0, {0.0, 0.0}, 'a'};
    if (rank == 0) {
        q.id = 7;
        q.pos[0] = 1.5;
        q.pos[1] = 2.5;
        q.tag = 'z';
        MPI_Send(&q, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&q, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(q.id == 7 && q.pos[0] == 1.5 && q.pos[1] == 2.5 && q.tag == 'z');
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
