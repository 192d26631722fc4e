//! End-to-end tests of the MPI collectives: the `v` variants, all-to-all,
//! scans, reduce-scatter, MAXLOC/MINLOC on pair datatypes, communicators made by
//! `MPI_Comm_dup`/`MPI_Comm_split`, and the nonblocking forms. Each correct
//! program asserts the exact result in C (so a wrong implementation fails the
//! test); each buggy twin must be reported with the right property.

mod common;

use common::{assert_holds, assert_violated, program, verify, BODY};

#[test]
fn gatherv_and_scatterv_move_blocks_of_different_sizes() {
    // Rank r contributes r+1 copies of 10*r; root 1 gathers them at
    // displacements 0, 1, 3 and scatters them back doubled.
    let prog = program(
        "",
        r#"    int mine[3], all[6], counts[3] = {1, 2, 3}, displs[3] = {0, 1, 3}, back[3];
    mine[0] = mine[1] = mine[2] = 10 * rank;
    MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 1, MPI_COMM_WORLD);
    if (rank == 1)
        assert(all[0] == 0 && all[1] == 10 && all[2] == 10 && all[3] == 20 && all[4] == 20 && all[5] == 20);
    if (rank == 1) { all[0] = 0; all[1] = 21; all[2] = 22; all[3] = 43; all[4] = 44; all[5] = 45; }
    MPI_Scatterv(all, counts, displs, MPI_INT, back, rank + 1, MPI_INT, 1, MPI_COMM_WORLD);
    if (rank == 0) assert(back[0] == 0);
    if (rank == 1) assert(back[0] == 21 && back[1] == 22);
    if (rank == 2) assert(back[0] == 43 && back[1] == 44 && back[2] == 45);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn gatherv_with_a_wrong_count_is_reported() {
    // Rank 2 sends 2 elements where the root expects 3: a mismatch.
    let fewer = program(
        "",
        r#"    int mine[3] = {1, 2, 3}, all[6], counts[3] = {1, 2, 3}, displs[3] = {0, 1, 3};
    MPI_Gatherv(mine, rank == 2 ? 2 : rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);"#,
    );
    let (code, r) = verify("3", &[], &fewer);
    assert_violated(code, &r, "collective-mismatch", Some(BODY + 1));
    // Rank 1 sends 3 where the root expects 2: the root's block overflows.
    let more = program(
        "",
        r#"    int mine[3] = {1, 2, 3}, all[6], counts[3] = {1, 2, 3}, displs[3] = {0, 1, 3};
    MPI_Gatherv(mine, rank == 1 ? 3 : rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);"#,
    );
    let (code, r) = verify("3", &[], &more);
    assert_violated(code, &r, "buffer-overflow", Some(BODY + 1));
}

#[test]
fn allgatherv_gives_everyone_every_block() {
    let prog = program(
        "",
        r#"    int mine[2], all[4], counts[3] = {2, 1, 1}, displs[3] = {2, 0, 1};
    mine[0] = rank + 1; mine[1] = 7;
    MPI_Allgatherv(mine, rank == 0 ? 2 : 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    assert(all[0] == 2 && all[1] == 3 && all[2] == 1 && all[3] == 7);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn alltoall_transposes_blocks() {
    let prog = program(
        "",
        r#"    int b = 10 * rank, t[6];
    int s[6] = {b, b + 1, b + 2, b + 3, b + 4, b + 5};
    MPI_Alltoall(s, 2, MPI_INT, t, 2, MPI_INT, MPI_COMM_WORLD);
    assert(t[0] == 2 * rank && t[1] == 2 * rank + 1 && t[2] == 10 + 2 * rank
           && t[3] == 11 + 2 * rank && t[4] == 20 + 2 * rank && t[5] == 21 + 2 * rank);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn alltoallv_follows_the_counts_and_displacements() {
    // Rank r sends j+1 elements to rank j from offset j and receives r+1 from
    // each rank i at offset i*(r+1): 10*i + r + k for k <= r.
    let prog = program(
        "int sc[3] = {1, 2, 3}, sd[3] = {0, 1, 2}, u[9] = {-1, -1, -1, -1, -1, -1, -1, -1, -1};",
        r#"    int b = 10 * rank, r1 = rank + 1;
    int s[6] = {b, b + 1, b + 2, b + 3, b + 4, b + 5};
    int rc[3] = {r1, r1, r1}, rd[3] = {0, r1, 2 * r1};
    MPI_Alltoallv(s, sc, sd, MPI_INT, u, rc, rd, MPI_INT, MPI_COMM_WORLD);
    if (rank == 0) assert(u[0] == 0 && u[1] == 10 && u[2] == 20 && u[3] == -1);
    if (rank == 1) assert(u[0] == 1 && u[1] == 2 && u[2] == 11 && u[3] == 12 && u[4] == 21 && u[5] == 22);
    if (rank == 2) assert(u[0] == 2 && u[2] == 4 && u[3] == 12 && u[5] == 14 && u[6] == 22 && u[8] == 24);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn alltoall_with_different_counts_is_a_mismatch() {
    let prog = program(
        "",
        r#"    int s[6] = {0, 1, 2, 3, 4, 5}, t[6];
    MPI_Alltoall(s, 2, MPI_INT, t, rank == 1 ? 1 : 2, MPI_INT, MPI_COMM_WORLD);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    // Process 1 posted 1 element per sender but each sends 2.
    assert_violated(code, &r, "buffer-overflow", Some(BODY + 1));
}

#[test]
fn scan_and_exscan_give_prefix_reductions() {
    // Symbolic contributions: x + rank.
    let prog = program(
        "#pragma TASS input int\n#define X 1",
        r#"    int v = X + rank, s = -5, e = -7, p[2], q[2];
    double d = rank + 0.5, ds;
    MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(s == (rank + 1) * X + rank * (rank + 1) / 2);
    MPI_Exscan(&v, &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank > 0) assert(e == rank * X + rank * (rank - 1) / 2);
    MPI_Scan(&d, &ds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    assert(ds == rank + 0.5);
    p[0] = rank; p[1] = 3 - rank;
    MPI_Scan(p, q, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    assert(q[0] == 0 && q[1] == 3 - rank);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn rank_0_result_of_exscan_is_undefined() {
    let prog = program(
        "",
        r#"    int v = rank + 1, e = 0;
    MPI_Exscan(&v, &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    v = e;"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 2));
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("uninitialised"), "{message}");
    // Rank 0 may pass NULL: its buffer is not significant.
    let prog = program(
        "",
        r#"    int v = rank + 1, e = 0;
    MPI_Exscan(&v, rank == 0 ? NULL : &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 1) assert(e == 1);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn a_wrong_scan_expectation_is_caught() {
    let prog = program(
        "",
        r#"    int v = rank + 1, s;
    MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(s == 6);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_violated(code, &r, "assertion", Some(BODY + 2));
}

#[test]
fn reduce_scatter_sums_and_splits() {
    let prog = program(
        "",
        r#"    int r1 = rank + 1, out[3] = {-1, -1, -1}, counts[3] = {1, 2, 3};
    int v[6] = {0, r1, 2 * r1, 3 * r1, 4 * r1, 5 * r1};
    MPI_Reduce_scatter(v, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    /* the sum over ranks of i*(rank+1) is 6*i */
    if (rank == 0) assert(out[0] == 0 && out[1] == -1);
    if (rank == 1) assert(out[0] == 6 && out[1] == 12 && out[2] == -1);
    if (rank == 2) assert(out[0] == 18 && out[1] == 24 && out[2] == 30);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn reduce_scatter_with_different_recvcounts_is_a_mismatch() {
    let prog = program(
        "",
        r#"    int v[6] = {0}, out[3], counts[3] = {1, 2, 3};
    if (rank == 2) { counts[0] = 2; counts[1] = 1; }
    MPI_Reduce_scatter(v, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_violated(code, &r, "collective-mismatch", Some(BODY + 2));
}

#[test]
fn maxloc_and_minloc_on_double_int_structs_and_int_pairs() {
    let prog = program(
        "struct dbl_int { double val; int rank; };",
        r#"    struct dbl_int in[2], out[2];
    int a[2], b[2];
    /* value 2.5 on ranks 1 and 2 (a tie: the smaller rank wins), 0.5 on rank 0 */
    in[0].val = rank == 0 ? 0.5 : 2.5; in[0].rank = rank;
    in[1].val = rank; in[1].rank = 10 + rank;
    MPI_Allreduce(in, out, 2, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    assert(out[0].val == 2.5 && out[0].rank == 1);
    assert(out[1].val == 2.0 && out[1].rank == 12);
    MPI_Reduce(in, out, 2, MPI_DOUBLE_INT, MPI_MINLOC, 2, MPI_COMM_WORLD);
    if (rank == 2) assert(out[0].val == 0.5 && out[0].rank == 0 && out[1].val == 0.0 && out[1].rank == 10);
    a[0] = rank % 2; a[1] = rank;
    MPI_Allreduce(a, b, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    assert(b[0] == 0 && b[1] == 0);
    MPI_Allreduce(a, b, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    assert(b[0] == 1 && b[1] == 1);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn maxloc_over_symbolic_values_finds_the_first_maximum() {
    let prog = program(
        "#pragma TASS input\ndouble x[3];\nstruct pair { double v; int i; };",
        r#"    struct pair mine, best;
    int j;
    mine.v = x[rank]; mine.i = rank;
    MPI_Allreduce(&mine, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    assert(0 <= best.i && best.i < 3 && x[best.i] == best.v);
    for (j = 0; j < 3; j++) {
        assert(x[j] <= best.v);
        if (j < best.i) assert(x[j] < best.v);
    }"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn maxloc_on_a_plain_datatype_is_a_type_error() {
    let prog = program(
        "",
        r#"    int v = rank, m;
    MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_violated(code, &r, "mpi-type", Some(BODY + 1));
}

#[test]
fn a_buffer_of_the_wrong_type_is_a_type_error() {
    let prog = program(
        "",
        r#"    int v = rank;
    double s;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "mpi-type", Some(BODY + 2));
}

#[test]
fn mismatched_collectives_are_reported() {
    let cases = [
        // a different collective
        r#"    int v = 1, w;
    if (rank == 2) MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);"#,
        // a different root
        r#"    int v = 1;
    MPI_Bcast(&v, 1, MPI_INT, rank == 1 ? 1 : 0, MPI_COMM_WORLD);"#,
        // a different op
        r#"    int v = 1, w;
    MPI_Allreduce(&v, &w, 1, MPI_INT, rank == 0 ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD);"#,
        // a different datatype
        r#"    int v[2] = {1, 2}, w[2];
    MPI_Allreduce(v, w, 1, rank == 0 ? MPI_INT : MPI_LONG, MPI_SUM, MPI_COMM_WORLD);"#,
        // a different count
        r#"    int v[2] = {1, 2}, w[2];
    MPI_Allreduce(v, w, rank == 2 ? 1 : 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);"#,
        // blocking and nonblocking forms do not match
        r#"    int v = 1; MPI_Request req;
    if (rank == 0) { MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req); MPI_Wait(&req, MPI_STATUS_IGNORE); }
    else MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);"#,
        // an Exscan where the others Scan
        r#"    int v = 1, w;
    if (rank == 1) MPI_Exscan(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else MPI_Scan(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);"#,
    ];
    for body in cases {
        let (code, r) = verify("3", &[], &program("", body));
        assert_violated(code, &r, "collective-mismatch", None);
    }
}

#[test]
fn comm_split_makes_row_communicators() {
    // 4 processes in a 2x2 grid; rows by rank / 2, ordered by key = -rank (reversed).
    let prog = program(
        "",
        r#"    MPI_Comm row, dup;
    int rrank, rsize, v, s, all[2], rev;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &row);
    MPI_Comm_rank(row, &rrank);
    MPI_Comm_size(row, &rsize);
    assert(rsize == 2 && rrank == 1 - rank % 2);
    v = rank * rank;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, row);
    if (rank < 2) assert(s == 1); else assert(s == 13);
    MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, row);
    if (rank == 1) assert(all[0] == 1 && all[1] == 0);
    if (rank == 3) assert(all[0] == 9 && all[1] == 4);
    MPI_Comm_dup(row, &dup);
    rev = rank;
    MPI_Bcast(&rev, 1, MPI_INT, 1, dup);
    assert(rev == rank - rank % 2);
    MPI_Comm_free(&dup);
    assert(dup == MPI_COMM_NULL);
    MPI_Comm_free(&row);"#,
    );
    let (code, r) = verify("4", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn comm_split_with_undefined_color_gives_comm_null() {
    let prog = program(
        "",
        r#"    MPI_Comm sub;
    int s, v = 1;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? MPI_UNDEFINED : 0, rank, &sub);
    if (rank == 1) {
        assert(sub == MPI_COMM_NULL);
    } else {
        MPI_Comm_size(sub, &s);
        assert(s == 2);
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, sub);
        assert(s == 2);
        MPI_Comm_free(&sub);
    }"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn a_freed_communicator_is_invalid() {
    let prog = program(
        "",
        r#"    MPI_Comm d, keep;
    int v = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    keep = d;
    MPI_Comm_free(&d);
    MPI_Bcast(&v, 1, MPI_INT, 0, keep);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 5));
}

#[test]
fn collectives_on_a_duplicate_and_the_original_must_match_in_order() {
    // Rank 0 reduces on the duplicate while rank 1 is in a barrier on the world:
    // each communicator's collective waits for a member that never comes.
    let prog = program(
        "",
        r#"    MPI_Comm d;
    int v = 1, w;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    if (rank == 0) { MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, d); MPI_Barrier(MPI_COMM_WORLD); }
    else { MPI_Barrier(MPI_COMM_WORLD); MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, d); }
    MPI_Comm_free(&d);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "deadlock", None);
}

#[test]
fn nonblocking_collectives_complete_at_wait() {
    let prog = program(
        "",
        r#"    MPI_Request req[4];
    int v = rank + 1, s = 0, b = 0, all[3], x[3], flag = 0, sc[3] = {1, 1, 1}, dsp[3] = {2, 1, 0};
    if (rank == 2) b = 9;
    MPI_Ibcast(&b, 1, MPI_INT, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Iallreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    MPI_Igatherv(&v, 1, MPI_INT, all, sc, dsp, MPI_INT, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Iscan(&v, &x[0], 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    assert(b == 9 && s == 6);
    if (rank == 0) assert(all[0] == 3 && all[1] == 2 && all[2] == 1);
    assert(x[0] == (rank == 0 ? 1 : rank == 1 ? 2 : 6));
    MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
    while (!flag) MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    MPI_Ialltoall(all, 1, MPI_INT, x, 1, MPI_INT, MPI_COMM_WORLD, &req[0]);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    if (rank != 0) MPI_Iexscan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    else MPI_Iexscan(&v, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    if (rank == 1) assert(s == 1);
    if (rank == 2) assert(s == 3);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn more_nonblocking_collectives() {
    let prog = program(
        "",
        r#"    MPI_Request req[5];
    int v[3] = {3 * rank, 3 * rank + 1, 3 * rank + 2}, g[9], a[9], s[3], t[3];
    int rc[3] = {1, 1, 1}, one = rank, got, disp[3] = {0, 1, 2};
    MPI_Igather(v, 1, MPI_INT, g, 1, MPI_INT, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Iallgather(v, 3, MPI_INT, a, 3, MPI_INT, MPI_COMM_WORLD, &req[1]);
    MPI_Ireduce(v, s, 3, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Ireduce_scatter(v, t, rc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[3]);
    MPI_Iscatter(v, 1, MPI_INT, &got, 1, MPI_INT, 2, MPI_COMM_WORLD, &req[4]);
    MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
    if (rank == 1) assert(g[0] == 0 && g[1] == 3 && g[2] == 6);
    assert(a[0] == 0 && a[1] == 1 && a[2] == 2 && a[3] == 3 && a[4] == 4 && a[5] == 5
           && a[6] == 6 && a[7] == 7 && a[8] == 8);
    if (rank == 0) assert(s[0] == 6 && s[1] == 7 && s[2] == 8);
    assert(t[0] == 9 + 3 * rank);
    assert(got == 6 + rank);
    MPI_Iallgatherv(&one, 1, MPI_INT, t, rc, disp, MPI_INT, MPI_COMM_WORLD, &req[0]);
    MPI_Iscatterv(v, rc, disp, MPI_INT, &got, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Ialltoallv(v, rc, disp, MPI_INT, s, rc, disp, MPI_INT, MPI_COMM_WORLD, &req[2]);
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
    assert(t[0] == 0 && t[1] == 1 && t[2] == 2);
    assert(got == rank);
    assert(s[0] == rank && s[1] == 3 + rank && s[2] == 6 + rank);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn a_nonblocking_collective_never_waited_for_leaks_its_request() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "memory-leak", Some(BODY + 1));
}

#[test]
fn a_nonblocking_collective_does_not_synchronise_at_the_call() {
    // Rank 0 waits for a message rank 1 sends only after its MPI_Ibarrier: fine
    // in MPI, since the MPI_Ibarrier of rank 1 does not wait for rank 0.
    let prog = program(
        "",
        r#"    MPI_Request req;
    int v = 0;
    if (rank == 0) MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (rank == 1) MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn gather_of_pairs_and_bcast_of_structs() {
    let prog = program(
        "struct pair { double v; int i; };",
        r#"    struct pair mine, all[3], b;
    int k;
    mine.v = rank * 1.5; mine.i = rank;
    MPI_Allgather(&mine, 1, MPI_DOUBLE_INT, all, 1, MPI_DOUBLE_INT, MPI_COMM_WORLD);
    for (k = 0; k < 3; k++) assert(all[k].v == k * 1.5 && all[k].i == k);
    if (rank == 0) { b.v = 4.25; b.i = 8; }
    MPI_Bcast(&b, 1, MPI_DOUBLE_INT, 0, MPI_COMM_WORLD);
    assert(b.v == 4.25 && b.i == 8);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn buffers_that_are_not_significant_may_be_null() {
    // Receive buffers of non-roots in Reduce/Gather, the send buffer of
    // non-roots in Scatter: MPI ignores them.
    let prog = program(
        "",
        r#"    int v = rank + 1, s = 0, all[3], back = -1;
    MPI_Reduce(&v, rank == 0 ? &s : NULL, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) assert(s == 6);
    MPI_Gather(&v, 1, MPI_INT, rank == 2 ? all : NULL, 1, MPI_INT, 2, MPI_COMM_WORLD);
    if (rank == 2) assert(all[0] == 1 && all[1] == 2 && all[2] == 3);
    if (rank == 2) all[1] = 20;
    MPI_Scatter(rank == 2 ? all : NULL, 1, MPI_INT, &back, 1, MPI_INT, 2, MPI_COMM_WORLD);
    assert(back == (rank == 1 ? 20 : rank + 1));"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn collectives_with_a_symbolic_count() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input {1 <= N && N <= 3} int
#define N 2
#pragma TASS input
double a[N];
int main(int argc, char *argv[]) {
    int rank, size, i;
    double s[N], g[3 * N], b[N], sc[N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(a, s, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) assert(s[i] == 3 * a[i]);
    MPI_Gather(a, N, MPI_DOUBLE, g, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) for (i = 0; i < 3 * N; i++) assert(g[i] == a[i % N]);
    if (rank == 1) for (i = 0; i < N; i++) b[i] = i * 2.0;
    MPI_Bcast(b, N, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) assert(b[i] == i * 2.0);
    MPI_Scan(a, sc, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (i = 0; i < N; i++) assert(sc[i] == a[i]);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r) = verify("3", &[], prog);
    assert_holds(code, &r);
    // The root posts 2 elements per process: wrong whenever N != 2.
    let bad = prog.replace(
        "MPI_Gather(a, N, MPI_DOUBLE, g, N,",
        "MPI_Gather(a, N, MPI_DOUBLE, g, 2,",
    );
    let (code, r) = verify("3", &[], &bad);
    assert_violated(code, &r, "collective-mismatch", Some(15));
}

#[test]
fn logical_bitwise_and_product_reductions() {
    let prog = program(
        "",
        r#"    int a = rank, l, bo, ba;
    double d = rank + 1.5, p;
    unsigned char uc = rank + 1, ur;
    MPI_Allreduce(&a, &l, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD); assert(l == 0);
    MPI_Allreduce(&a, &l, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD); assert(l == 1);
    MPI_Allreduce(&a, &bo, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD); assert(bo == 3);
    MPI_Allreduce(&a, &ba, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD); assert(ba == 0);
    MPI_Allreduce(&d, &p, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD); assert(p == 1.5 * 2.5 * 3.5);
    MPI_Allreduce(&uc, &ur, 1, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD); assert(ur == 3);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
    // MPI defines no arithmetic on MPI_CHAR or MPI_BYTE.
    for (decl, call) in [
        (
            "char c = 'a', s;",
            "MPI_Allreduce(&c, &s, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);",
        ),
        (
            "unsigned char c = 1, s;",
            "MPI_Allreduce(&c, &s, 1, MPI_BYTE, MPI_MAX, MPI_COMM_WORLD);",
        ),
    ] {
        let (code, r) = verify("2", &[], &program("", &format!("    {decl}\n    {call}")));
        assert_violated(code, &r, "mpi-type", Some(BODY + 1));
    }
}

/// The result of a nonblocking collective reaches its receive buffer only at
/// the wait: reading it earlier is caught (it was a wrong "holds" when the
/// data was delivered at the call).
#[test]
fn reading_a_nonblocking_collective_result_before_the_wait_is_caught() {
    let early = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int r, p, x = 1, y = 0, z;
    MPI_Request q;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
    z = y;
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    assert(z == p);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r) = verify("3", &[], early);
    assert_violated(code, &r, "invalid-pointer", Some(10));
    let after = early.replace(
        "    z = y;\n    MPI_Wait(&q, MPI_STATUS_IGNORE);\n",
        "    MPI_Wait(&q, MPI_STATUS_IGNORE);\n    z = y;\n",
    );
    let (code, r) = verify("3", &[], &after);
    assert_holds(code, &r);
}

/// `MPI_Gatherv` whose displacements (one of them an input) make two receive
/// regions overlap: erroneous in MPI, `mpi-count`; disjoint ones hold.
#[test]
fn overlapping_gatherv_regions_are_reported() {
    let text = |lo: i32, hi: i32| {
        program(
            &format!("#pragma TASS input {{{lo} <= d && d <= {hi}}} int\nint d;"),
            r#"    int mine[2], all[9], counts[3] = {2, 2, 2}, displs[3] = {0, 2, 4}, i;
    mine[0] = rank; mine[1] = 10 + rank;
    displs[2] = d;
    MPI_Gatherv(mine, 2, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) for (i = 0; i < 3; i++) assert(all[displs[i]] == i);"#,
        )
    };
    // d in 0..=3 overlaps rank 0's or rank 1's region; the body starts one line
    // later than `BODY` counts on (two lines of declarations, not one).
    let (code, r) = verify("3", &[], &text(0, 6));
    assert_violated(code, &r, "mpi-count", Some(BODY + 1 + 3));
    let (code, r) = verify("3", &[], &text(4, 7));
    assert_holds(code, &r);
}

/// A root that depends on the inputs splits the path, one value per path:
/// blocking and nonblocking collectives run with it, a root that can fall
/// outside the communicator is `mpi-rank`, and roots that differ between
/// members for some inputs are a `collective-mismatch`.
#[test]
fn a_root_that_depends_on_the_inputs_splits_the_path() {
    let text = |range: &str, root0: &str| {
        program(
            &format!("#pragma TASS input {{{range}}} int\nint k;"),
            &format!(
                r#"    int v, s;
    MPI_Request q;
    v = rank == k ? 42 : 0;
    MPI_Bcast(&v, 1, MPI_INT, {root0}, MPI_COMM_WORLD);
    assert(v == 42);
    MPI_Reduce(&rank, &s, 1, MPI_INT, MPI_SUM, k, MPI_COMM_WORLD);
    if (rank == k) assert(s == 3);
    v = rank == k ? 7 : 0;
    MPI_Ibcast(&v, 1, MPI_INT, k, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    assert(v == 7);"#
            ),
        )
    };
    // Two lines of declarations: the body starts one line after `BODY`.
    let bcast = BODY + 1 + 3;
    let (code, r) = verify("3", &[], &text("0 <= k && k < 3", "k"));
    assert_holds(code, &r);
    let (code, r) = verify("3", &[], &text("0 <= k && k <= 3", "k"));
    assert_violated(code, &r, "mpi-rank", Some(bcast));
    let (code, r) = verify("3", &[], &text("0 <= k && k < 3", "rank == 0 ? k : 0"));
    assert_violated(code, &r, "collective-mismatch", Some(bcast));
    // The reduction's result reaches the root the input names.
    let wrong = text("0 <= k && k < 3", "k").replace("assert(s == 3)", "assert(s == 3 && k != 2)");
    let (code, r) = verify("3", &[], &wrong);
    assert_violated(code, &r, "assertion", Some(bcast + 3));
}
