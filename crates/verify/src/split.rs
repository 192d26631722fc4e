//! Splitting a search into parts (`--shard K/N`, `--jobs N`): choosing the
//! cut, running one part, and combining the reports of parts into one.
//!
//! The split itself is `tass_search::api::Split`: the tree is cut below its
//! first `depth` branching points and the subtrees at the cut (the *items*)
//! are dealt out round robin; every part explores the prefix above the cut and
//! its own items in full. `ModelSystem` keeps the states it saves above and
//! below the cut in two stores (`enter_region`), so no part prunes a state
//! because of a subtree it explored only in part, and the cycle proviso of
//! the reduction sees, below the cut, only this part's states: within a part
//! the search below the cut is an ordinary depth-first search from the items,
//! and the argument of `ModelSystem::save` holds there unchanged.

use std::time::Instant;

use tass_search::api::{Outcome, Search, Split, SplitInfo};

use crate::engine::Engine;
use crate::options::{MatchMode, Options, Shard, ShardReport};
use crate::report::{Certainty, Report, Verdict, ViolationReport};
use crate::system::{limits_now, Findings, Mode, ModelSystem};

/// Items wanted at the cut per part: more balance the parts' work better,
/// fewer cost less prefix (which every part explores).
pub(crate) const ITEMS_PER_PART: u64 = 32;

/// The deepest cut tried.
const MAX_CUT_DEPTH: u64 = 64;

/// Cuts without more items tried before giving up: a tree may branch out
/// again below a level where it did not (manager-worker np 7 has 8 items at
/// depths 3 and 4, then 16, 20, 48, 92, 224, 504).
const PLATEAU: u64 = 4;

/// States a trial of a cut may explore (every part repeats the trials).
const TRIAL_STATES: u64 = 50_000;

/// Which search is split, and how it is run.
pub(crate) struct SplitTarget<'o> {
    pub options: &'o Options,
    pub mode: Mode,
    pub label: Option<&'static str>,
    pub nprocs: usize,
    /// How the trials match states: as the search they cut does (a trial
    /// with syntactic matching where the search matches by sets may never
    /// end: `ltl_mutex_counter.c`'s counter is a new expression every round).
    pub matching: MatchMode,
    /// When the run started (for `--timeout`).
    pub started: Instant,
}

/// The depth of the cut for `parts` parts: the shallowest that gives at least
/// [`ITEMS_PER_PART`] items per part, found by exploring the prefix of cuts
/// 1, 2, ... (each part makes the same trials, so all choose the same depth).
/// The trials stop early when [`PLATEAU`] cuts in a row have no more items
/// than the best so far (the tree stopped branching out: deeper trials would
/// explore ever more of it, which every part repeats) or a trial meets its
/// state budget, a limit, a violation or an error; the depth with the most
/// items is taken then (the shallowest of those).
pub(crate) fn choose_cut<E: Engine>(
    engine: &mut E,
    initial: &E::State,
    target: &SplitTarget<'_>,
    parts: u64,
) -> u64 {
    let wanted = parts.saturating_mul(ITEMS_PER_PART);
    let mut best = (0u64, 1u64);
    for depth in 1..=MAX_CUT_DEPTH {
        let mut findings = Findings::new(target.options);
        findings.progress = None;
        let mut limits = limits_now(target.options, target.started, 0);
        limits.max_states = Some(
            limits
                .max_states
                .map_or(TRIAL_STATES, |m| m.min(TRIAL_STATES)),
        );
        let mut system = ModelSystem::new(
            engine,
            &mut findings,
            target.mode,
            initial.clone(),
            target.label,
            target.nprocs,
        );
        system.matching = target.matching;
        let (report, info) = Search::new(limits).count_items(&mut system, initial.clone(), depth);
        let complete = matches!(report.outcome, Outcome::Complete) && system.error.is_none();
        if info.items > best.0 {
            best = (info.items, depth);
        }
        if info.items >= wanted || depth >= best.1 + PLATEAU || !complete {
            break;
        }
    }
    best.1
}

/// What one part's search saw of the split, for its report.
pub(crate) fn split_report(shard: Option<Shard>, split: Split, info: SplitInfo) -> ShardReport {
    ShardReport {
        shard,
        depth: split.depth,
        items: info.items,
        digest: info.digest,
        parts: split.parts,
    }
}

/// One part's result, for [`combine`].
pub(crate) struct PartResult {
    pub part: u64,
    pub report: Report,
    /// What the part saw of the cut (`None`: it did not get to run).
    pub split: Option<ShardReport>,
}

/// The reports of the parts of one split as one report: violated if any part
/// found a violation (its violations first, in the order of the parts),
/// an error if one failed, inconclusive if one was, holds only if every part
/// held and all saw the same cut. Counters are summed over the parts (the
/// prefix above the cut counts once per part).
pub(crate) fn combine(mut results: Vec<PartResult>, options: &Options, started: Instant) -> Report {
    results.sort_by_key(|r| r.part);
    let mut combined = Report {
        verdict: Verdict::Holds,
        ..Report::error(String::new())
    };
    combined.error = None;
    combined.max_violations = options.max_violations;
    let mut keys = std::collections::HashSet::new();
    let mut outputs: Option<std::collections::BTreeMap<String, String>> = None;
    let mut cuts: Vec<&ShardReport> = Vec::new();
    for result in &results {
        let r = &result.report;
        combined.stats.absorb_part(&r.stats);
        combined.stopped_early |= r.stopped_early;
        combined.aligned_loops_stuck |= r.aligned_loops_stuck;
        for w in &r.warnings {
            if !combined.warnings.contains(w) {
                combined.warnings.push(w.clone());
            }
        }
        for v in &r.violations {
            if keys.insert((v.property, v.file.clone(), v.line, v.column)) {
                combined.violations.push(v.clone());
            } else if v.certainty == Certainty::Provable {
                // Two parts found the same violation: keep the provable one,
                // as one thread keeps the first provable report it meets.
                let same = |w: &&mut ViolationReport| {
                    (w.property, &w.file, w.line, w.column)
                        == (v.property, &v.file, v.line, v.column)
                };
                if let Some(kept) = combined.violations.iter_mut().find(same) {
                    if kept.certainty == Certainty::Possible {
                        *kept = v.clone();
                    }
                }
            }
        }
        if let Some(values) = &r.outputs {
            let seen = outputs.get_or_insert_with(Default::default);
            for (name, value) in values {
                let entry = seen.entry(name.clone()).or_insert_with(|| value.clone());
                if entry != value {
                    *entry = "(differs between runs)".to_string();
                }
            }
        }
        if let Some(cut) = &result.split {
            if r.verdict == Verdict::Holds {
                cuts.push(cut);
            }
        }
    }
    combined.outputs = outputs;
    combined.stats.time_s = started.elapsed().as_secs_f64();
    if options.max_violations != 0 && combined.violations.len() > options.max_violations {
        combined.violations.truncate(options.max_violations);
        combined.stopped_early = true;
    }
    let first_with = |verdict: Verdict| results.iter().find(|r| r.report.verdict == verdict);
    if !combined.violations.is_empty() {
        combined.verdict = Verdict::Violated;
        // A part that stopped with an error left its subtree unsearched: the
        // violations stand, but the user learns that more may exist there.
        if let Some(failed) = first_with(Verdict::Error) {
            if let Some(error) = &failed.report.error {
                combined.warnings.push(format!(
                    "a part of the parallel search stopped with an error, so more violations may \
                     exist: {}",
                    error.trim_start_matches("error: ")
                ));
            }
        }
    } else if let Some(failed) = first_with(Verdict::Error) {
        combined.verdict = Verdict::Error;
        combined.error.clone_from(&failed.report.error);
    } else if let Some(open) = first_with(Verdict::Inconclusive) {
        combined.verdict = Verdict::Inconclusive;
        combined
            .inconclusive_reason
            .clone_from(&open.report.inconclusive_reason);
    } else if results.iter().any(|r| r.split.is_none()) {
        combined.verdict = Verdict::Error;
        combined.error = Some("error: a part of the parallel search did not run".into());
    } else if cuts
        .windows(2)
        .any(|w| (w[0].items, w[0].digest) != (w[1].items, w[1].digest))
    {
        // The parts explored different prefixes: their items may not cover
        // the search. Never a silent "holds".
        combined.verdict = Verdict::Error;
        combined.error = Some(
            "error: the parts of the parallel search saw different cuts (a \
             nondeterministic search?); run with --jobs 1"
                .into(),
        );
    }
    combined.split = results.iter().find_map(|r| r.split.clone());
    combined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Property, Witness};

    fn violation(certainty: Certainty) -> ViolationReport {
        ViolationReport {
            property: Property::Assertion,
            certainty,
            message: format!("{certainty:?}"),
            file: "p.c".into(),
            line: 7,
            column: 3,
            process: 0,
            trace: Vec::new(),
            path_condition: String::new(),
            claim: String::new(),
            witness: Witness::Unavailable(String::new()),
            witness_missing: Vec::new(),
            difference: None,
            snapshots: None,
        }
    }

    fn part(part: u64, report: Report) -> PartResult {
        PartResult {
            part,
            report,
            split: None,
        }
    }

    fn violated(certainty: Certainty) -> Report {
        Report {
            verdict: Verdict::Violated,
            violations: vec![violation(certainty)],
            ..Report::error(String::new())
        }
    }

    /// Two parts found the same violation, the first only possibly: the
    /// combined report keeps the provable one. A third part stopped with an
    /// error: the verdict stays violated and a warning names the error.
    #[test]
    fn the_same_violation_is_kept_provable_and_an_error_is_named() {
        let options = Options {
            max_violations: 0,
            ..Options::default()
        };
        let failed = Report::error("error: p.c:9:1: not supported by the tass engine: x");
        let results = vec![
            part(0, violated(Certainty::Possible)),
            part(1, violated(Certainty::Provable)),
            part(2, failed),
        ];
        let combined = combine(results, &options, Instant::now());
        assert_eq!(combined.verdict, Verdict::Violated);
        assert_eq!(combined.violations.len(), 1);
        assert_eq!(combined.violations[0].certainty, Certainty::Provable);
        assert!(
            combined
                .warnings
                .iter()
                .any(|w| w.contains("stopped with an error") && w.contains("p.c:9:1")),
            "{:?}",
            combined.warnings
        );
    }
}
