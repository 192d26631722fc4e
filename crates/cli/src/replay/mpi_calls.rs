//! The MPI calls of each rank in an ltl lasso, read from the trace steps'
//! `mpi` marks (which process's call a step is part of, and which phase:
//! `call` entered and returned, `post` entered, `match` a middle part or
//! MPI's progress on a posted receive, `complete` returned), and the PMPI
//! layer that forces the outcome of each poll (`MPI_Test`, `MPI_Testall`,
//! `MPI_Iprobe`) to the lasso's.
//!
//! A rank's calls are the marks of its own process that enter a call, in
//! trace order: `MPI_Ssend`'s post (its completion is no new call), a
//! blocking receive completed in the sender's step, a collective in the step
//! that completes it for every member. A rank's own step that only completes
//! or progresses a call it entered earlier runs no code at its line (gdb's
//! line breakpoint does not stop there).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::mpi_lasso::RankStep;
use super::wildcard::rank_arrays;

/// The MPI functions the lasso replay follows: each call is one or more
/// trace steps whose marks say which one enters it; the polls' outcomes are
/// forced. Others are refused by name.
pub(super) const FOLLOWED_CALLS: &[&str] = &[
    "MPI_Init",
    "MPI_Comm_rank",
    "MPI_Comm_size",
    "MPI_Send",
    "MPI_Ssend",
    "MPI_Recv",
    "MPI_Isend",
    "MPI_Issend",
    "MPI_Irecv",
    "MPI_Wait",
    "MPI_Waitall",
    "MPI_Test",
    "MPI_Testall",
    "MPI_Sendrecv",
    "MPI_Probe",
    "MPI_Iprobe",
    "MPI_Barrier",
    "MPI_Bcast",
    "MPI_Reduce",
    "MPI_Allreduce",
    "MPI_Finalize",
    "MPI_Abort",
];

/// The polls whose outcome the lasso fixes.
const POLLS: &[&str] = &["MPI_Test", "MPI_Testall", "MPI_Iprobe"];

/// The file (name, then the rank) where the poll layer writes, for each of a
/// cycle's polls it forced to find nothing, whether MPI had the operation
/// ready (`K 1`) or not (`K 0`), K the rank's poll number.
const POLL_LOG: &str = "tass_replay_lasso_polls_";

/// Whether the run contradicts the lasso's polls: a poll of the cycle that
/// the lasso says finds nothing, forever, whose operation MPI had ready the
/// last time the run made it. The forced polls complete nothing, so a ready
/// operation stays ready: every later pass would find it too, and MPI's
/// progress rule says a poll repeated on an operation that can complete
/// eventually finds it, so such a lasso is no run of MPI (when the cycle's
/// polls really wait for what never comes, MPI never has it ready). `None`:
/// no such poll.
pub(super) fn poll_contradicts_progress(trace: &Value, dir: &Path, procs: usize) -> Option<String> {
    let (stem, cycle) = super::wildcard::lasso_steps(trace);
    let (stem, cycle) = (poll_outcomes(stem), poll_outcomes(cycle));
    for rank in 0..procs {
        let Some(cycle_polls) = cycle.get(&rank).filter(|c| !c.is_empty()) else {
            continue;
        };
        let log = std::fs::read_to_string(dir.join(format!("{POLL_LOG}{rank}")));
        let Ok(log) = log else { continue };
        let before = stem.get(&rank).map_or(0, Vec::len);
        // Per position in the cycle: (times made, MPI had it ready the last time).
        let mut seen: BTreeMap<usize, (usize, bool)> = BTreeMap::new();
        for line in log.lines() {
            let mut words = line.split_whitespace().map(|w| w.parse::<usize>().ok());
            let (Some(Some(k)), Some(Some(ready))) = (words.next(), words.next()) else {
                continue;
            };
            let Some(position) = k.checked_sub(before).map(|c| c % cycle_polls.len()) else {
                continue;
            };
            let entry = seen.entry(position).or_default();
            entry.0 += 1;
            entry.1 = ready == 1;
        }
        if let Some((position, (made, _))) = seen.iter().find(|(_, (_, ready))| *ready) {
            return Some(format!(
                "rank {rank}'s poll {} of the cycle finds nothing in the lasso, forever, but \
                 MPI had its operation ready (the last of the {made} times the run made it; \
                 it stays ready, and MPI's progress rule says a poll repeated on an operation \
                 that can complete finds it): the lasso is no run of MPI",
                position + 1
            ));
        }
    }
    None
}

/// One process's MPI call a trace step is part of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CallMark {
    pub process: usize,
    pub call: String,
    pub phase: String,
    /// `flag 1` / `flag 0` for a poll.
    pub outcome: Option<String>,
}

impl CallMark {
    /// Whether the step enters the call.
    fn enters(&self) -> bool {
        self.phase == "call" || self.phase == "post"
    }
}

/// The marks of one JSON trace step (none for a step of no MPI call, or a
/// trace written before steps had marks).
pub(super) fn marks_of(step: &Value) -> Vec<CallMark> {
    step["mpi"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .filter_map(|m| {
            Some(CallMark {
                process: m["process"].as_u64()? as usize,
                call: m["call"].as_str()?.to_string(),
                phase: m["phase"].as_str()?.to_string(),
                outcome: m["outcome"].as_str().map(str::to_string),
            })
        })
        .collect()
}

/// Whether `step` of `rank` reaches its line in the real run (a gdb line
/// breakpoint stops there): a step of the rank's that neither only completes
/// nor only progresses a call it entered in an earlier step, and is no join
/// of an `if`'s branches ("end of if (...)": no code of its own at the line).
pub(super) fn reaches_line(step: &RankStep, rank: usize) -> bool {
    if step.process != rank || step.source.starts_with("end of ") {
        return false;
    }
    let own: Vec<&CallMark> = step.marks.iter().filter(|m| m.process == rank).collect();
    own.is_empty() || own.iter().any(|m| m.enters())
}

/// Where the cycle may start for the replay: the first step `k` such that,
/// in the cycle rotated to start at `k`, every rank that moves in it first
/// moves in a step of its own that runs code at its line (not a label's).
/// Held there, each rank has made exactly its moves before the rotated
/// cycle's start, which need of the others only moves before it: no held
/// rank keeps another from its stop. A rank whose first move is inside
/// another's step (a collective, a receive the sender's step completes)
/// would have to be held where the trace shows no line of its own.
pub(super) fn cycle_start(cycle: &[RankStep], procs: usize) -> Option<usize> {
    let moves =
        |s: &RankStep, rank: usize| s.process == rank || s.marks.iter().any(|m| m.process == rank);
    // A label's step and an `if`'s join run no code of their own and need
    // nothing of the others: the rank is held at its next line.
    let no_code = |s: &RankStep| {
        super::mpi_lasso::is_label_step(&s.source) || s.source.starts_with("end of ")
    };
    (0..cycle.len().max(1)).find(|&k| {
        (0..procs).all(|rank| {
            let mut turned = cycle[k..].iter().chain(&cycle[..k]);
            match turned.find(|s| moves(s, rank) && !(s.process == rank && no_code(s))) {
                None => true,
                Some(first) => first.process == rank && reaches_line(first, rank),
            }
        })
    })
}

/// The MPI calls `rank` enters in `steps`, in order.
pub(super) fn calls_entered<'a>(
    steps: impl IntoIterator<Item = &'a RankStep>,
    rank: usize,
) -> Vec<String> {
    steps
        .into_iter()
        .flat_map(|s| &s.marks)
        .filter(|m| m.process == rank && m.enters())
        .map(|m| m.call.clone())
        .collect()
}

/// Whether `rank`'s last call in `steps` was entered and has not returned
/// (an `MPI_Ssend` posted whose receive never comes).
pub(super) fn call_left_open(steps: &[RankStep], rank: usize) -> bool {
    steps
        .iter()
        .flat_map(|s| &s.marks)
        .rfind(|m| m.process == rank)
        .is_some_and(|m| m.phase == "post" || m.phase == "match")
}

/// Whether any step has marks (traces of older versions have none).
pub(super) fn has_marks(steps: &[RankStep]) -> bool {
    steps.iter().any(|s| !s.marks.is_empty())
}

/// Each rank's poll outcomes in `steps` (true: flag 1).
fn poll_outcomes(steps: &[Value]) -> BTreeMap<usize, Vec<bool>> {
    let mut out: BTreeMap<usize, Vec<bool>> = BTreeMap::new();
    for mark in steps.iter().flat_map(marks_of) {
        if POLLS.contains(&mark.call.as_str()) && mark.enters() {
            let found = mark.outcome.as_deref() != Some("flag 0");
            out.entry(mark.process).or_default().push(found);
        }
    }
    out
}

/// Writes the PMPI layer that forces each poll of an ltl lasso to the
/// outcome the lasso's step has (the stem's polls, then the cycle's over and
/// over); returns its path and a note, `None` when the lasso has no poll.
///
/// A poll the lasso says finds something waits for it (`PMPI_Wait`,
/// `PMPI_Waitall`, `PMPI_Probe`): the lasso's step is where it completes, and
/// MPI's progress rule lets a real run complete it there. A poll the lasso
/// says finds nothing returns flag 0 without asking MPI (a real test may
/// find nothing while the operation is in flight: the program cannot tell).
pub(super) fn enforce_polls(
    trace: &Value,
    dir: &Path,
) -> Result<Option<(PathBuf, String)>, String> {
    let (stem, cycle) = super::wildcard::lasso_steps(trace);
    let (stem, cycle) = (poll_outcomes(stem), poll_outcomes(cycle));
    if stem.is_empty() && cycle.is_empty() {
        return Ok(None);
    }
    let layer = poll_layer(&stem, &cycle);
    let path = dir.join("tass_replay_polls.c");
    std::fs::write(&path, layer).map_err(|e| format!("{}: {e}", path.display()))?;
    let show = |m: &BTreeMap<usize, Vec<bool>>, rank: usize| -> String {
        m.get(&rank)
            .map(|v| {
                v.iter()
                    .map(|&f| if f { "1" } else { "0" })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    let ranks: Vec<usize> = stem.keys().chain(cycle.keys()).copied().collect();
    let mut ranks = ranks;
    ranks.dedup();
    ranks.sort_unstable();
    ranks.dedup();
    let chosen: Vec<String> = ranks
        .iter()
        .map(|&r| {
            format!(
                "rank {r} [{}] then [{}] repeated",
                show(&stem, r),
                show(&cycle, r)
            )
        })
        .collect();
    Ok(Some((
        path,
        format!(
            "poll outcomes forced (MPI_Test/MPI_Testall/MPI_Iprobe k-th call: flag): {}",
            chosen.join("; ")
        ),
    )))
}

/// The C source of the poll layer.
fn poll_layer(stem: &BTreeMap<usize, Vec<bool>>, cycle: &BTreeMap<usize, Vec<bool>>) -> String {
    let ranks = stem.keys().chain(cycle.keys()).max().map_or(0, |m| m + 1);
    let mut out = String::from(
        "/* tass replay: the lasso's poll outcomes. The k-th MPI_Test, MPI_Testall or\n \
         * MPI_Iprobe of a rank finds what the lasso's step found (1: it waits for it,\n \
         * 0: flag 0 without asking MPI): the stem's polls, then the cycle's over and over. */\n\
         #include <mpi.h>\n\
         #include <stdio.h>\n\
         #include <unistd.h>\n",
    );
    // 1: the poll finds something, 0: it finds nothing
    let outcomes = |per_rank: &BTreeMap<usize, Vec<bool>>, rank: u64| -> Vec<String> {
        let list = per_rank
            .get(&(rank as usize))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        list.iter()
            .map(|&f| if f { "1" } else { "0" }.to_string())
            .collect()
    };
    let ranks_u64 = ranks as u64;
    let (stems, stem_counts) =
        rank_arrays(&mut out, "tass_poll_stem", ranks_u64, |r| outcomes(stem, r));
    let (cycles, cycle_counts) = rank_arrays(&mut out, "tass_poll_cycle", ranks_u64, |r| {
        outcomes(cycle, r)
    });
    let _ = write!(
        out,
        "static const int *const tass_poll_stems[{ranks}] = {{ {stems}}};\n\
         static const int tass_poll_stem_counts[{ranks}] = {{ {stem_counts}}};\n\
         static const int *const tass_poll_cycles[{ranks}] = {{ {cycles}}};\n\
         static const int tass_poll_cycle_counts[{ranks}] = {{ {cycle_counts}}};\n\
         static int tass_polls = 0;\n\
         /* 1: find something, 0: find nothing, -1: the lasso does not say (the rank is\n \
         * asked by the wrapper: the replay's gdb counts the MPI calls made outside MPI_ ones). */\n\
         /* Whether a cycle's poll forced to find nothing had its operation ready in MPI\n \
         * (asked for up to 0.1 s, completing nothing): written down, since MPI's progress\n \
         * rule lets no repeated poll miss a ready operation forever. */\n\
         static void tass_poll_ready(int rank, int ready) {{\n\
         \x20   char name[64];\n\
         \x20   FILE *log;\n\
         \x20   snprintf(name, sizeof name, \"{POLL_LOG}%d\", rank);\n\
         \x20   log = fopen(name, \"a\");\n\
         \x20   if (log) {{\n\
         \x20       fprintf(log, \"%d %d\\n\", tass_polls - 1, ready);\n\
         \x20       fclose(log);\n\
         \x20   }}\n\
         }}\n\
         static int tass_in_cycle(int rank) {{\n\
         \x20   return rank < {ranks} && tass_polls - 1 >= tass_poll_stem_counts[rank];\n\
         }}\n\
         static int tass_poll_outcome(int rank) {{\n\
         \x20   int k = tass_polls++;\n\
         \x20   if (rank >= {ranks})\n\
         \x20       return -1;\n\
         \x20   if (k < tass_poll_stem_counts[rank])\n\
         \x20       return tass_poll_stems[rank][k];\n\
         \x20   if (tass_poll_cycle_counts[rank] == 0)\n\
         \x20       return -1;\n\
         \x20   return tass_poll_cycles[rank][(k - tass_poll_stem_counts[rank]) % tass_poll_cycle_counts[rank]];\n\
         }}\n\
         int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {{\n\
         \x20   int rank = 0;\n\
         \x20   PMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\
         \x20   switch (tass_poll_outcome(rank)) {{\n\
         \x20   case 1: *flag = 1; return PMPI_Wait(request, status);\n\
         \x20   case 0:\n\
         \x20       if (tass_in_cycle(rank)) {{\n\
         \x20           int ready = 0, tries;\n\
         \x20           for (tries = 0; tries < 20 && !ready; tries++, usleep(ready ? 0 : 5000))\n\
         \x20               PMPI_Request_get_status(*request, &ready, MPI_STATUS_IGNORE);\n\
         \x20           tass_poll_ready(rank, ready);\n\
         \x20       }}\n\
         \x20       *flag = 0;\n\
         \x20       return MPI_SUCCESS;\n\
         \x20   default: return PMPI_Test(request, flag, status);\n\
         \x20   }}\n\
         }}\n\
         int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {{\n\
         \x20   int rank = 0;\n\
         \x20   PMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\
         \x20   switch (tass_poll_outcome(rank)) {{\n\
         \x20   case 1: *flag = 1; return PMPI_Waitall(count, requests, statuses);\n\
         \x20   case 0:\n\
         \x20       if (tass_in_cycle(rank)) {{\n\
         \x20           int ready = 0, one, i, tries;\n\
         \x20           for (tries = 0; tries < 20 && !ready; tries++, usleep(ready ? 0 : 5000))\n\
         \x20               for (ready = 1, i = 0; i < count; i++) {{\n\
         \x20                   PMPI_Request_get_status(requests[i], &one, MPI_STATUS_IGNORE);\n\
         \x20                   ready = ready && one;\n\
         \x20               }}\n\
         \x20           tass_poll_ready(rank, ready);\n\
         \x20       }}\n\
         \x20       *flag = 0;\n\
         \x20       return MPI_SUCCESS;\n\
         \x20   default: return PMPI_Testall(count, requests, flag, statuses);\n\
         \x20   }}\n\
         }}\n\
         int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {{\n\
         \x20   int rank = 0;\n\
         \x20   PMPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\
         \x20   switch (tass_poll_outcome(rank)) {{\n\
         \x20   case 1: *flag = 1; return PMPI_Probe(source, tag, comm, status);\n\
         \x20   case 0:\n\
         \x20       if (tass_in_cycle(rank)) {{\n\
         \x20           int ready = 0, tries;\n\
         \x20           for (tries = 0; tries < 20 && !ready; tries++, usleep(ready ? 0 : 5000))\n\
         \x20               PMPI_Iprobe(source, tag, comm, &ready, MPI_STATUS_IGNORE);\n\
         \x20           tass_poll_ready(rank, ready);\n\
         \x20       }}\n\
         \x20       *flag = 0;\n\
         \x20       return MPI_SUCCESS;\n\
         \x20   default: return PMPI_Iprobe(source, tag, comm, flag, status);\n\
         \x20   }}\n\
         }}\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn calls_are_counted_where_they_are_entered() {
        let step = |process: usize, marks: Value| {
            let place = super::super::lasso::Place {
                file: "p.c".into(),
                line: 1,
            };
            RankStep {
                place,
                source: String::new(),
                process,
                marks: marks_of(&json!({ "mpi": marks })),
            }
        };
        let steps = vec![
            step(
                0,
                json!([{"process": 0, "call": "MPI_Ssend", "phase": "post"}]),
            ),
            step(
                1,
                json!([{"process": 1, "call": "MPI_Recv", "phase": "call"}]),
            ),
            step(
                0,
                json!([{"process": 0, "call": "MPI_Ssend", "phase": "complete"}]),
            ),
            step(
                1,
                json!([{"process": 1, "call": "MPI_Barrier", "phase": "call"},
                       {"process": 0, "call": "MPI_Barrier", "phase": "call"}]),
            ),
            step(
                0,
                json!([{"process": 0, "call": "MPI_Ssend", "phase": "post"}]),
            ),
        ];
        assert_eq!(
            calls_entered(&steps, 0),
            ["MPI_Ssend", "MPI_Barrier", "MPI_Ssend"]
        );
        assert_eq!(calls_entered(&steps, 1), ["MPI_Recv", "MPI_Barrier"]);
        assert!(reaches_line(&steps[0], 0));
        assert!(!reaches_line(&steps[2], 0));
        assert!(!reaches_line(&steps[3], 0));
        assert!(call_left_open(&steps, 0));
        assert!(!call_left_open(&steps, 1));
    }

    #[test]
    fn polls_are_forced_stem_then_cycle() {
        let poll = |flag: &str| {
            json!({"process": 1, "source": "MPI_Test(&r, &f, &s);",
                   "mpi": [{"process": 1, "call": "MPI_Test", "phase": "call", "outcome": flag}]})
        };
        let trace = json!({"trace": [poll("flag 0"), {"source": "(cycle: ...)"}, poll("flag 1")]});
        let dir = std::env::temp_dir().join(format!("tass-polls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (path, note) = enforce_polls(&trace, &dir).unwrap().unwrap();
        let c = std::fs::read_to_string(path).unwrap();
        assert!(c.contains("tass_poll_stem1[] = { 0 }"), "{c}");
        assert!(c.contains("tass_poll_cycle1[] = { 1 }"), "{c}");
        assert!(c.contains("PMPI_Wait(request, status)"), "{c}");
        assert!(note.contains("rank 1 [0] then [1] repeated"), "{note}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
