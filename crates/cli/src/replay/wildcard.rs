//! Enforcing the trace's wildcard matches: which sender each `MPI_Recv` with
//! `MPI_ANY_SOURCE` took in the counterexample.
//!
//! The trace says it when the sender's step completes a waiting receive ("process D's
//! waiting receive takes the message at once"), and a wildcard receive that takes a
//! message already sent names its sender in its own step ("(takes the message from
//! process F)"). So each rank's blocking receives are numbered in trace order, each
//! with its sender when the trace names it. A generated PMPI layer (`MPI_Recv` calling
//! `PMPI_Recv`) counts the rank's `MPI_Recv` calls and turns the k-th one's
//! `MPI_ANY_SOURCE` into the recorded sender on `MPI_COMM_WORLD` (for an ltl lasso:
//! the stem's receives, then the cycle's over and over). Messages from one sender are
//! not overtaken, so receiving from that sender takes the same message the trace did.
//! Not enforced: receives whose sender the trace does not name, nonblocking and
//! combined receives and probes (the layer is left out when the program has any, as
//! the numbering would not match), `MPI_ANY_TAG` choices, and other communicators.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

/// Receive operations the numbering cannot follow.
const OTHER_RECEIVES: &[&str] = &[
    "MPI_Irecv",
    "MPI_Sendrecv",
    "MPI_Probe",
    "MPI_Iprobe",
    "MPI_Mrecv",
    "MPI_Recv_init",
];

/// Each rank's blocking receives, numbered per rank: the trace's in order,
/// then (an ltl lasso) the cycle's, repeated forever.
pub(crate) type Matches = BTreeMap<u64, Vec<Option<u64>>>;

/// Each rank's blocking receives in trace order: `Some(sender)` when the trace names it.
pub(crate) fn matches(trace: &Value) -> Matches {
    steps_matches(trace["trace"].as_array().map(Vec::as_slice).unwrap_or(&[]))
}

/// An ltl lasso's receives: the stem's, and the cycle's (which repeat).
pub(crate) fn lasso_matches(trace: &Value) -> (Matches, Matches) {
    let (stem, cycle) = lasso_steps(trace);
    (steps_matches(stem), steps_matches(cycle))
}

/// An ltl trace's JSON steps split at the cycle mark: (stem, cycle); the
/// cycle is empty when there is no mark.
pub(crate) fn lasso_steps(trace: &Value) -> (&[Value], &[Value]) {
    let steps = trace["trace"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let mark = steps
        .iter()
        .position(|s| {
            s["source"]
                .as_str()
                .is_some_and(|t| t.starts_with("(cycle"))
        })
        .unwrap_or(steps.len());
    (&steps[..mark], steps.get(mark + 1..).unwrap_or(&[]))
}

fn steps_matches(steps: &[Value]) -> Matches {
    let mut ranks: Matches = BTreeMap::new();
    for step in steps {
        let Some(process) = step["process"].as_u64() else {
            continue;
        };
        let source = step["source"].as_str().unwrap_or("");
        if let Some(receiver) = completed_receiver(source) {
            ranks.entry(receiver).or_default().push(Some(process));
        } else if let Some(sender) = taken_from(source) {
            ranks.entry(process).or_default().push(Some(sender));
        } else if source.contains("MPI_Recv(") && !source.contains("   (") {
            ranks.entry(process).or_default().push(None);
        }
    }
    ranks
}

/// `F` from a wildcard `MPI_Recv` step's "(takes the message from process F)"
/// (a message already sent).
fn taken_from(source: &str) -> Option<u64> {
    if !source.contains("MPI_Recv(") {
        return None;
    }
    let at = source.find("   (takes the message from process ")?;
    let rest = &source[at + "   (takes the message from process ".len()..];
    rest.trim_end_matches(')').trim().parse().ok()
}

/// `D` from a step's "(process D's waiting receive takes the message at once)".
pub(crate) fn completed_receiver(source: &str) -> Option<u64> {
    let at = source.find("(process ")?;
    let rest = &source[at + "(process ".len()..];
    let (number, tail) = rest.split_once('\'')?;
    tail.starts_with("s waiting receive takes the message")
        .then(|| number.parse().ok())
        .flatten()
}

/// Why the matches cannot be enforced in this program, if they cannot.
pub(crate) fn unenforceable(program_texts: &[String]) -> Option<&'static str> {
    OTHER_RECEIVES
        .iter()
        .find(|op| program_texts.iter().any(|t| t.contains(&format!("{op}("))))
        .copied()
}

/// Writes one C array a rank, `{prefix}{rank}` holding the rank's `items`
/// (`{ -1 }` when it has none: C has no empty initializer), and returns the
/// rows of the two tables that point at them and count them (`prefix0,
/// prefix1, ...` and the lengths). Both PMPI layers (wildcard matches and
/// poll outcomes) lay their per-rank lists out this way.
pub(super) fn rank_arrays(
    out: &mut String,
    prefix: &str,
    ranks: u64,
    items_of: impl Fn(u64) -> Vec<String>,
) -> (String, String) {
    let (mut table, mut counts) = (String::new(), String::new());
    for rank in 0..ranks {
        let items = items_of(rank);
        let _ = writeln!(
            out,
            "static const int {prefix}{rank}[] = {{ {} }};",
            if items.is_empty() {
                "-1".to_string()
            } else {
                items.join(", ")
            }
        );
        let _ = write!(table, "{prefix}{rank}, ");
        let _ = write!(counts, "{}, ", items.len());
    }
    (table, counts)
}

/// The PMPI layer's C source, or `None` when no wildcard match is recorded.
/// `cycle`: receives numbered after `matches`' repeat these, over and over
/// (an ltl lasso's cycle; empty otherwise).
pub(crate) fn pmpi_layer(matches: &Matches, cycle: &Matches) -> Option<String> {
    if !matches
        .values()
        .chain(cycle.values())
        .flatten()
        .any(Option::is_some)
    {
        return None;
    }
    let ranks = matches
        .keys()
        .chain(cycle.keys())
        .max()
        .map_or(0, |m| m + 1);
    let mut out = String::from(
        "/* tass replay: the counterexample's wildcard matches. The k-th MPI_Recv of a rank\n \
         * with MPI_ANY_SOURCE on MPI_COMM_WORLD receives from the sender the trace chose\n \
         * (-1: the trace does not say; the receive stays a wildcard). */\n\
         #include <mpi.h>\n",
    );
    // -1: the trace does not say which sender
    let sources = |per_rank: &Matches, rank| -> Vec<String> {
        let list = per_rank.get(&rank).map(Vec::as_slice).unwrap_or(&[]);
        list.iter()
            .map(|s| s.map_or("-1".to_string(), |s| s.to_string()))
            .collect()
    };
    let (cycle_table, cycle_counts) =
        rank_arrays(&mut out, "tass_replay_cycle", ranks, |r| sources(cycle, r));
    let (table, counts) = rank_arrays(&mut out, "tass_replay_rank", ranks, |r| sources(matches, r));
    let _ = write!(
        out,
        "static const int *const tass_replay_sources[{ranks}] = {{ {table}}};\n\
         static const int tass_replay_counts[{ranks}] = {{ {counts}}};\n\
         static const int *const tass_replay_cycles[{ranks}] = {{ {cycle_table}}};\n\
         static const int tass_replay_cycle_counts[{ranks}] = {{ {cycle_counts}}};\n\
         static int tass_replay_receives = 0;\n\
         int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,\n\
         \x20            MPI_Comm comm, MPI_Status *status) {{\n\
         \x20   int rank = 0, k = tass_replay_receives++;\n\
         \x20   PMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\
         \x20   if (source == MPI_ANY_SOURCE && comm == MPI_COMM_WORLD && rank < {ranks}) {{\n\
         \x20       int chosen = -1, c = k - tass_replay_counts[rank];\n\
         \x20       if (k < tass_replay_counts[rank])\n\
         \x20           chosen = tass_replay_sources[rank][k];\n\
         \x20       else if (tass_replay_cycle_counts[rank] > 0)\n\
         \x20           chosen = tass_replay_cycles[rank][c % tass_replay_cycle_counts[rank]];\n\
         \x20       if (chosen >= 0)\n\
         \x20           source = chosen;\n\
         \x20   }}\n\
         \x20   return PMPI_Recv(buf, count, type, source, tag, comm, status);\n\
         }}\n"
    );
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn senders_completing_waiting_receives_are_numbered_per_rank() {
        let trace = json!({"trace": [
            {"process": 1, "source": "MPI_Send(&r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);   (process 0's waiting receive takes the message at once)"},
            {"process": 0, "source": "MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"},
            {"process": 2, "source": "MPI_Send(&r, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);   (process 0's waiting receive takes the message at once)"},
            {"process": 0, "source": "MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);   (takes the message from process 2)"},
        ]});
        let m = matches(&trace);
        assert_eq!(m[&0], vec![Some(1), None, Some(2), Some(2)]);
        let c = pmpi_layer(&m, &Matches::new()).unwrap();
        assert!(c.contains("tass_replay_rank0[] = { 1, -1, 2, 2 }"), "{c}");
        assert!(c.contains("PMPI_Recv"), "{c}");
        assert_eq!(
            unenforceable(&["MPI_Irecv(&x, 1, ...);".into()]),
            Some("MPI_Irecv")
        );
    }
}
