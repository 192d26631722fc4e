/* fevs/mpi/mpi_dt_struct_mixed_ok.c -- MPI_Type_create_struct mixing basic
 * datatypes: a C struct {int id; double pos[2]; char tag;} described by
 * three blocks at its offsetof displacements. Rank 0 sends an array of two
 * particles; rank 1 receives them into its own array (the datatype's extent
 * is the struct's size, 32 bytes, padding included) and checks every field,
 * then checks MPI_Type_get_extent and MPI_Type_size.
 *
 * Expected verdict: tass verify -n 2 mpi_dt_struct_mixed_ok.c: holds.
 * mpirun -np 2 (default and zero-buffer, ASan+UBSan): exit 0.
 */
#include <mpi.h>
#include <assert.h>
#include <stddef.h>

struct particle {
    int id;
    double pos[2];
    char tag;
};

int main(int argc, char *argv[]) {
    int rank;
    struct particle p[2];
    int lengths[3] = {1, 2, 1};
    MPI_Aint displs[3] = {offsetof(struct particle, id), offsetof(struct particle, pos),
                          offsetof(struct particle, tag)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, particle_type;
    MPI_Aint lb, extent;
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(3, lengths, displs, types, &particle_type);
    MPI_Type_commit(&particle_type);
    MPI_Type_get_extent(particle_type, &lb, &extent);
    MPI_Type_size(particle_type, &size);
    assert(lb == 0 && extent == sizeof(struct particle) && size == 4 + 16 + 1);
    if (rank == 0) {
        for (int i = 0; i < 2; i++) {
            p[i].id = i + 1;
            p[i].pos[0] = 0.5 * i;
            p[i].pos[1] = -1.0;
            p[i].tag = 'a' + i;
        }
        MPI_Send(p, 2, particle_type, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(p, 2, particle_type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 2; i++)
            assert(p[i].id == i + 1 && p[i].pos[0] == 0.5 * i && p[i].pos[1] == -1.0 &&
                   p[i].tag == 'a' + i);
    }
    MPI_Type_free(&particle_type);
    MPI_Finalize();
    return 0;
}
