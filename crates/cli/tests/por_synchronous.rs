//! Synchronous send–receive transitions (`--deadlock potential`): where a
//! process waits in a blocking receive with nothing to take and every other
//! process either sends to it or waits for it, the reduction explores each
//! sender's message going straight into that receive instead of every order of
//! buffering. Each program runs with the reduction on and off
//! (`--por off`); the verdicts and properties must agree with each other
//! and with the verdict worked out by hand.

mod common;

use common::{inline, reduced_and_full, verify_reduced};

/// A manager hands out `TASKS` tasks to the workers and takes the results with
/// `MPI_ANY_SOURCE`, replying with the next task or a stop message. Correct in
/// every order; the sum of the results is checked.
const MANAGER_WORKER: &str = r#"#include <mpi.h>
#include <assert.h>
#define TASKS 4
int main(int argc, char *argv[]) {
    int rank, nprocs, task, result, sent = 0, done, w, sum = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0) {
        for (w = 1; w < nprocs; w++) {
            task = sent < TASKS ? sent + 1 : 0;
            if (sent < TASKS) sent++;
            MPI_Send(&task, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
        }
        for (done = 0; done < TASKS; done++) {
            MPI_Recv(&result, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            sum += result;
            task = sent < TASKS ? sent + 1 : 0;
            if (sent < TASKS) sent++;
            MPI_Send(&task, 1, MPI_INT, status.MPI_SOURCE, 0, MPI_COMM_WORLD);
        }
        assert(sum == 2 + 4 + 6 + 8);
    } else {
        while (1) {
            MPI_Recv(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (task == 0) break;
            result = 2 * task;
            MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn manager_worker_holds_and_the_synchronous_pairs_see_fewer_states() {
    let (reduced, full) = reduced_and_full("4", &[], MANAGER_WORKER, "holds", "");
    assert!(reduced < full, "reduced {reduced} vs full {full}");
}

/// Rank 0 takes one message with `MPI_ANY_SOURCE`; only when it came from rank
/// 1 does it take rank 2's as well. When rank 2's comes first, rank 1's send
/// never finds a receive: a potential deadlock (with buffering, an unreceived
/// message) in that order only. The full search may report the unreceived
/// message first (it buffers sends too); the reduced one, whose sends here
/// all go straight into the receive, must report the deadlock.
const ONE_ORDER_LEAVES_A_SENDER: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
        if (status.MPI_SOURCE == 1)
            MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_deadlock_in_one_arrival_order_is_found() {
    reduced_and_full(
        "3",
        &[],
        ONE_ORDER_LEAVES_A_SENDER,
        "violated",
        "deadlock|unreceived-message",
    );
    let (code, r) = verify_reduced("3", &[], &inline(ONE_ORDER_LEAVES_A_SENDER), true);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["violations"][0]["property"], "deadlock", "{r:#}");
    assert_eq!(r["violations"][0]["line"], 12, "{r:#}");
    reduced_and_full(
        "3",
        &["--deadlock", "absolute"],
        ONE_ORDER_LEAVES_A_SENDER,
        "violated",
        "unreceived-message",
    );
}

/// Each worker learns its place in the arrival order from rank 0 and asserts
/// it is its rank minus one: false when rank 2's message arrives first. The
/// failing assertion is a step of a sender after its send.
const ARRIVAL_ORDER_ASSERTED: &str = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, x = 0, k;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (k = 0; k < 2; k++) {
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            MPI_Send(&k, 1, MPI_INT, status.MPI_SOURCE, 0, MPI_COMM_WORLD);
        }
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&k, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(k == rank - 1);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_violation_after_the_send_in_one_arrival_order_is_found() {
    reduced_and_full("3", &[], ARRIVAL_ORDER_ASSERTED, "violated", "assertion");
}

/// Rank 1 sends to rank 0 and then to rank 2; rank 2 sends to rank 0 only
/// after hearing from rank 1; rank 0 takes two messages with
/// `MPI_ANY_SOURCE`. With zero buffering, rank 1's first send must meet rank
/// 0's receive before rank 2 can send at all: no deadlock. The synchronous
/// pair is explored only where rank 2 waits for rank 1, not for rank 0, so the
/// reduction must fall back to every step here.
const SENDER_RELEASES_A_THIRD: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_sender_that_releases_another_process_keeps_every_order() {
    reduced_and_full("3", &[], SENDER_RELEASES_A_THIRD, "holds", "");
}

/// As above, but rank 2 also sends to rank 0 first, and rank 0 takes only
/// two messages: rank 1's second send or one of rank 2's is left over in some
/// order. Zero buffering: rank 0 takes rank 2's first message, then rank 1's;
/// rank 1 sends to rank 2, which now sends again to a rank 0 that is gone.
const TWO_WILDCARDS_THREE_MESSAGES: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_message_left_over_in_some_order_is_found() {
    reduced_and_full(
        "3",
        &[],
        TWO_WILDCARDS_THREE_MESSAGES,
        "violated",
        "deadlock",
    );
}
