//! Comparative symbolic execution (`tass compare`).
//!
//! Both programs are explored completely, each recording its distinct terminal
//! states (path condition and outputs: process 0's copies, on either side
//! whatever its number of processes). Then for every pair of a specification path
//! `(pc_s, y_s)` and an implementation path `(pc_i, y_i)` every output is proved
//! equal under `pc_s && pc_i`. This is the paper's composite model (the
//! implementation runs under the specification's path condition) with the
//! implementation explored once instead of once per specification path: the
//! implementation paths consistent with `pc_s` are exactly those for which
//! `pc_s && pc_i` is satisfiable, and for the others the equality is vacuously valid.
//! Inputs are shared: both engines use one expression factory, so an input is the
//! same symbolic constant in both programs. Two implementation paths that overlap
//! but compute different outputs (nondeterminism) are caught too, since each is
//! compared with the same specification path.

use std::sync::atomic::Ordering;

use tass_model::api::Model;
use tass_search::api::{Limit, PathId, PathTree, Search, SearchStats, Split};
use tass_semantics::api::{EngineError, Violation};

use crate::engine::{Engine, Equality, OutputMismatch, OutputPair};
use crate::options::{MatchMode, Options, ShardReport};
use crate::report::{complete_witness, violation_report};
use crate::report::{
    Certainty, OutputDifference, Property, Report, TraceStep, ViolationReport, Witness,
};
use crate::split::{choose_cut, split_report, SplitTarget};
use crate::system::{finish, limits_now, replay, Ending, Findings, Mode, ModelSystem};

/// Runs the comparison. `impl_model` gives the location reported for a differing
/// output (its declaration in the implementation).
pub(crate) fn compare_with<E: Engine>(
    spec: &mut E,
    imp: &mut E,
    impl_model: &Model,
    options: &Options,
) -> Report {
    compare_with_search(spec, imp, impl_model, options, None)
}

/// What a parallel search of the implementation (`--jobs N`) hands back: its
/// distinct terminal states with their paths, its counters, the violations
/// and warnings its parts found, and how it ended.
pub(crate) struct ImplSearched<E: Engine> {
    pub terminals: Terminals<E>,
    pub stats: SearchStats,
    pub violations: Vec<ViolationReport>,
    pub warnings: Vec<String>,
    pub ending: Ending,
    /// The prover's and the SMT solvers' calls made by the parts' engines.
    pub prover_calls: (u64, u64),
}

/// A search of the implementation from its initial state, done by the caller
/// (on several threads) instead of [`Comparison::explore`]'s.
pub(crate) type ImplSearch<'r, E> =
    dyn FnMut(&mut E, &<E as Engine>::State) -> ImplSearched<E> + 'r;

/// [`compare_with`], the implementation explored by `impl_search` when given
/// (`--symmetry` and `--shard` not allowed with it: the caller checks).
pub(crate) fn compare_with_search<'r, E: Engine>(
    spec: &'r mut E,
    imp: &'r mut E,
    impl_model: &'r Model,
    options: &'r Options,
    impl_search: Option<&'r mut ImplSearch<'r, E>>,
) -> Report {
    let mut comparison = Comparison {
        impl_search,
        parts_prover_calls: (0, 0),
        spec,
        imp,
        impl_model,
        options,
        findings: Findings::new(options),
        total: SearchStats::default(),
        symmetry: SymmetryUse::Allowed,
        split: None,
        cut_conditions: None,
        impl_closed_cycle: false,
    };
    let mut ending = comparison.run();
    if let SymmetryUse::Applied { closed_cycle } = comparison.symmetry {
        let read_consumed = comparison.imp.stop_symmetry_reduction();
        let differs = !comparison.findings.violations.is_empty();
        let unchecked = matches!(ending, Ending::Unchecked(_));
        if differs || unchecked || closed_cycle {
            // A violation found under the reduction may lean on an
            // over-approximated (consumed) element and its trace shows a
            // representative; coverage by the representatives' path conditions
            // says nothing when the implementation can run for ever. The full
            // search decides.
            let why = if differs {
                "a violation was found under the reduction"
            } else if closed_cycle {
                "the implementation can run for ever (its paths' coverage of the inputs needs every path)"
            } else {
                "the representatives' paths do not cover the specification's inputs"
            };
            let mut warnings = std::mem::take(&mut comparison.findings.warnings);
            warnings.push(format!(
                "--symmetry: {why}; the implementation was explored again without the reduction, and the verdict is that search's"
            ));
            // Both searches' statistics and time are counted (`total` goes on
            // adding; the time limit runs from the first search's start).
            let started = comparison.findings.started;
            comparison.findings = Findings::new(options);
            comparison.findings.started = started;
            comparison.symmetry = SymmetryUse::Refused;
            ending = comparison.run();
            warnings.append(&mut comparison.findings.warnings);
            comparison.findings.warnings = Vec::new();
            for w in warnings {
                comparison.findings.warn(w);
            }
        } else if read_consumed {
            comparison.findings.warn(
                "--symmetry: the implementation read an input element again after the reduction \
                 had permuted it; that value was taken as unknown (sound for the verdict holds)"
                    .to_string(),
            );
        }
    }
    let Comparison {
        spec,
        imp,
        findings,
        total,
        split,
        parts_prover_calls,
        ..
    } = comparison;
    let mut report = finish(imp, findings, ending, total, options);
    // The specification's loop invariant checks (its own part of joint
    // invariants) count too.
    let (checks, calls) = spec.invariant_counters();
    report.stats.invariant_checks += checks;
    report.stats.invariant_prover_calls += calls;
    report.stats.loop_arrivals += spec.loop_arrivals();
    report.stats.prover_calls += parts_prover_calls.0;
    report.stats.smt_calls += parts_prover_calls.1;
    report.split = split;
    report
}

/// Where `compare --symmetry` stands in one comparison.
#[derive(Clone, Copy, PartialEq)]
enum SymmetryUse {
    /// The reduction may be applied once the hypotheses are proved.
    Allowed,
    /// Not to be applied (the search again without it).
    Refused,
    /// Applied to the implementation's search; whether that search met a
    /// saved state again on its own path (a cycle).
    Applied { closed_cycle: bool },
}

/// The completed paths of one program: each terminal state with the steps that
/// reach it from the initial state. The steps are kept as a tree
/// ([`PathTree`]): paths met one after the other by the depth-first search
/// share their prefix (one vector per path was most of the memory of a
/// manager-worker run; see docs/PERFORMANCE.md, branch mem21).
pub(crate) struct Terminals<E: Engine> {
    ends: Vec<(E::State, PathId)>,
    paths: PathTree<E::Step>,
}

impl<E: Engine> Default for Terminals<E> {
    fn default() -> Self {
        Terminals {
            ends: Vec::new(),
            paths: PathTree::new(),
        }
    }
}

impl<E: Engine> Terminals<E> {
    /// Records the terminal state `state` reached by `path`.
    pub fn push(&mut self, state: E::State, path: &[E::Step]) {
        let id = self.paths.insert(path);
        self.ends.push((state, id));
    }

    /// The terminal states with their paths, in the order they were met.
    pub fn iter(&self) -> impl Iterator<Item = &(E::State, PathId)> {
        self.ends.iter()
    }

    /// The terminal states, in the order they were met.
    pub fn states(&self) -> impl Iterator<Item = &E::State> {
        self.ends.iter().map(|(state, _)| state)
    }

    /// The steps of the path `id`.
    pub fn path(&self, id: PathId) -> Vec<E::Step> {
        self.paths.path(id)
    }
}

/// One program explored to the end.
struct Explored<E: Engine> {
    initial: E::State,
    terminals: Terminals<E>,
}

/// Which program of the two.
#[derive(Clone, Copy)]
enum Side {
    Spec,
    Impl,
}

/// One `compare` run: the two engines, and what the run gathers (violations,
/// search statistics) as it explores both programs and pairs their paths.
struct Comparison<'r, E: Engine> {
    /// The implementation's search, when the caller does it (`--jobs N`).
    impl_search: Option<&'r mut ImplSearch<'r, E>>,
    /// The prover's and solvers' calls of that search's engines.
    parts_prover_calls: (u64, u64),
    spec: &'r mut E,
    imp: &'r mut E,
    impl_model: &'r Model,
    options: &'r Options,
    findings: Findings,
    total: SearchStats,
    symmetry: SymmetryUse,
    /// What the split implementation search saw of its cut (`--shard`).
    split: Option<ShardReport>,
    /// The path conditions at the items of that cut, and whether this shard
    /// took each.
    cut_conditions: Option<Vec<(E::Value, bool)>>,
    /// The implementation's last search met a state again on its own path.
    impl_closed_cycle: bool,
}

impl<E: Engine> Comparison<'_, E> {
    /// Explores one program to the end, collecting its terminal states.
    fn explore(&mut self, side: Side) -> Result<Explored<E>, Ending> {
        let (engine, label, nprocs) = match side {
            Side::Spec => (&mut *self.spec, "spec", self.options.spec_procs),
            Side::Impl => (&mut *self.imp, "impl", self.options.impl_procs),
        };
        let initial = engine.initial_state().map_err(Ending::Error)?;
        if let (Side::Impl, Some(impl_search)) = (side, self.impl_search.as_mut()) {
            let searched = impl_search(&mut *engine, &initial);
            return self.absorb(initial, searched);
        }
        let search = Search::new(limits_now(
            self.options,
            self.findings.started,
            self.total.states_seen,
        ));
        let mut system = ModelSystem::new(
            &mut *engine,
            &mut self.findings,
            Mode::CollectTerminals,
            initial.clone(),
            Some(label),
            nprocs,
        );
        // `--shard`: the implementation's search is split. Every shard explores
        // the specification in full, pairs it with its own implementation
        // paths, and checks coverage for the inputs it answers for
        // (`Engine::restrict_to_part`): those of its own items at the cut and
        // those of no item (the paths above the cut, which every shard has).
        let report = match (side, self.options.shard) {
            (Side::Impl, Some(shard)) => {
                drop(system);
                let target = SplitTarget {
                    options: self.options,
                    mode: Mode::CollectTerminals,
                    label: Some(label),
                    nprocs,
                    matching: MatchMode::Syntactic,
                    started: self.findings.started,
                };
                let depth = choose_cut(engine, &initial, &target, shard.count);
                let split = Split {
                    part: shard.index,
                    parts: shard.count,
                    depth,
                };
                system = ModelSystem::new(
                    engine,
                    &mut self.findings,
                    Mode::CollectTerminals,
                    initial.clone(),
                    Some(label),
                    nprocs,
                );
                system.cut_conditions = Some(Vec::new());
                let (report, info) = search.run_part(&mut system, initial.clone(), split);
                self.split = Some(split_report(Some(shard), split, info));
                self.cut_conditions = system.cut_conditions.take();
                report
            }
            _ => search.run(&mut system, initial.clone()),
        };
        if let Side::Impl = side {
            self.impl_closed_cycle = system.closed_cycle;
        }
        if let (Side::Impl, SymmetryUse::Applied { closed_cycle }) = (side, &mut self.symmetry) {
            *closed_cycle = system.closed_cycle;
        }
        self.total.absorb(&report.stats);
        match system.ending(report.outcome) {
            Ending::Complete => Ok(Explored {
                initial,
                terminals: std::mem::take(&mut system.terminals),
            }),
            other => Err(other),
        }
    }

    /// Takes in what a search done by the caller found (violations
    /// deduplicated as one search's would be).
    fn absorb(
        &mut self,
        initial: E::State,
        searched: ImplSearched<E>,
    ) -> Result<Explored<E>, Ending> {
        self.total.absorb(&searched.stats);
        self.parts_prover_calls.0 += searched.prover_calls.0;
        self.parts_prover_calls.1 += searched.prover_calls.1;
        for warning in searched.warnings {
            self.findings.warn(warning);
        }
        for v in searched.violations {
            if self.findings.is_new(v.property, &v.file, v.line, v.column) {
                self.findings.violations.push(v);
                if self.findings.budget_spent() {
                    self.findings.stopped_early = true;
                    return Err(Ending::Stopped);
                }
            }
        }
        match searched.ending {
            Ending::Complete => Ok(Explored {
                initial,
                terminals: searched.terminals,
            }),
            other => Err(other),
        }
    }

    fn run(&mut self) -> Ending {
        let spec_side = match self.explore(Side::Spec) {
            Ok(x) => x,
            Err(ending) => return ending,
        };
        if !self.options.symmetry.is_empty() {
            if let Err(error) = self.decide_symmetry(&spec_side.terminals) {
                return Ending::Error(error);
            }
        }
        // The implementation's joint assertions are checked against these as its
        // search reaches them.
        let mut spec_joint: Vec<_> = spec_side
            .terminals
            .iter()
            .map(|(s, _)| (self.spec.path_condition(s), self.spec.joint_history(s)))
            .collect();
        // With joint loop invariants: also the paths cut at a loop's return,
        // the partners of the implementation's iterations (`loop_joint.rs`).
        let cut_paths = self.spec.cut_joint_paths();
        let joint_loops = !cut_paths.is_empty();
        spec_joint.extend(cut_paths);
        self.imp.set_spec_joint(spec_joint);
        let impl_side = match self.explore(Side::Impl) {
            Ok(x) => x,
            Err(ending) => return ending,
        };
        // Each implementation path's outputs once, not once per pair.
        let impl_outputs: Vec<_> = (impl_side.terminals.iter())
            .map(|(s, _)| self.imp.outputs(s))
            .collect();
        for (spec_state, spec_path) in spec_side.terminals.iter() {
            let pc_s = self.spec.path_condition(spec_state);
            let outputs_s = self.spec.outputs(spec_state);
            for ((impl_state, impl_path), outputs_i) in
                impl_side.terminals.iter().zip(&impl_outputs)
            {
                if let Some(limit) = interrupted(self.options, &self.findings) {
                    return Ending::Limit(limit);
                }
                let pc_i = self.imp.path_condition(impl_state);
                if self.imp.disjoint(&pc_s, &pc_i) {
                    continue;
                }
                let pc = self.imp.and(&pc_s, &pc_i);
                // Step-wise: the joint assertions, occurrence by occurrence.
                let spec_history = self.spec.joint_history(spec_state);
                match self.imp.check_joint(impl_state, &spec_history, &pc) {
                    Err(error) => return Ending::Error(error),
                    Ok(Some(violation)) => {
                        let impl_path = impl_side.terminals.path(*impl_path);
                        let path = (&impl_side.initial, impl_path.as_slice());
                        if let Err(error) = self.report_joint(path, violation, &pc) {
                            return Ending::Error(error);
                        }
                        if self.findings.budget_spent() {
                            self.findings.stopped_early = true;
                            return Ending::Stopped;
                        }
                    }
                    Ok(None) => {}
                }
                let Some(m) = self.first_mismatch(&pc, &outputs_s, outputs_i) else {
                    continue;
                };
                let declared = self
                    .impl_model
                    .global_by_name(base_name(&m.element))
                    .map(|v| v.span.clone());
                let (file, line, column) = match &declared {
                    Some(span) => (span.file.to_string(), span.start_line, span.start_column),
                    None => (self.impl_model.name.clone(), 0, 0),
                };
                if !self
                    .findings
                    .is_new(Property::NotEquivalent, &file, line, column)
                {
                    continue;
                }
                let spec_path = spec_side.terminals.path(*spec_path);
                let impl_path = impl_side.terminals.path(*impl_path);
                let paths = PairedPaths {
                    spec: OnePath {
                        initial: &spec_side.initial,
                        steps: &spec_path,
                    },
                    imp: OnePath {
                        initial: &impl_side.initial,
                        steps: &impl_path,
                    },
                    pc,
                };
                let violation = match self.difference(m, paths, (file, line, column)) {
                    Ok(violation) => violation,
                    Err(error) => return Ending::Error(error),
                };
                self.findings.violations.push(violation);
                if self.findings.budget_spent() {
                    self.findings.stopped_early = true;
                    return Ending::Stopped;
                }
            }
        }
        // Pairs of completed paths were compared; an input on which the specification
        // completes but the implementation never does was not (paper: both terminate).
        let mut domain: Vec<_> = spec_side
            .terminals
            .iter()
            .map(|(s, _)| self.spec.path_condition(s))
            .collect();
        if let Some(items) = &self.cut_conditions {
            let all: Vec<_> = items.iter().map(|(pc, _)| pc.clone()).collect();
            let own: Vec<_> = items
                .iter()
                .filter(|(_, taken)| *taken)
                .map(|(pc, _)| pc.clone())
                .collect();
            let restricted: Option<Vec<_>> = domain
                .iter()
                .map(|d| self.imp.restrict_to_part(d, &all, &own))
                .collect();
            match restricted {
                Some(restricted) => domain = restricted,
                None => {
                    return Ending::Unchecked(
                        "this shard cannot tell which inputs it answers for".into(),
                    )
                }
            }
        }
        let cover: Vec<_> = impl_side
            .terminals
            .iter()
            .map(|(s, _)| self.imp.path_condition(s))
            .collect();
        if let Err(reason) = self.imp.covers(&domain, &cover) {
            // Joint loop invariants: the paths after a loop have conditions
            // over both programs' fresh values (the implementation's under
            // the joint invariant), which the question above cannot relate.
            if !(joint_loops && self.every_impl_path_ends(&spec_side, &impl_side)) {
                return Ending::Unchecked(reason.to_string());
            }
        }
        Ending::Complete
    }

    /// Coverage without comparing the paths' conditions (joint loop
    /// invariants): every input the specification accepts is one the
    /// implementation accepts, and every path of the implementation's search
    /// ended at a final state, a violation (reported), a loop's cut (the
    /// induction covers the iterations) or an infeasible branch: no cycle
    /// closed on its own path (a run that goes on for ever), no assumption
    /// ended one, no split of the search. Then each input's real run of the
    /// implementation is one of its completed paths.
    fn every_impl_path_ends(&mut self, spec: &Explored<E>, imp: &Explored<E>) -> bool {
        let assumes = self.impl_model.functions.iter().any(|f| {
            f.body.as_ref().is_some_and(|body| {
                body.graph
                    .edge_weights()
                    .any(|t| matches!(t.statement, tass_model::api::Statement::Assume { .. }))
            })
        });
        let inputs_s = self.spec.path_condition(&spec.initial);
        let inputs_i = self.imp.path_condition(&imp.initial);
        !self.impl_closed_cycle
            && !assumes
            && self.cut_conditions.is_none()
            && self.imp.covers(&[inputs_s], &[inputs_i]).is_ok()
    }

    /// `--symmetry`: decides the hypotheses on the specification's completed
    /// paths and, when they hold, applies the reduction to the implementation's
    /// search (unless this is the search again without it); warns either way.
    fn decide_symmetry(&mut self, terminals: &Terminals<E>) -> Result<(), EngineError> {
        if self.symmetry == SymmetryUse::Refused {
            return Ok(());
        }
        let (note, invariant) = crate::symmetry::report(&mut *self.spec, terminals, self.options);
        let Some(elements) = invariant.filter(|_| self.symmetry == SymmetryUse::Allowed) else {
            self.findings.warn(note);
            return Ok(());
        };
        let initial = self.imp.initial_state()?;
        let arrays = &self.options.symmetry;
        match self.imp.reduce_by_symmetry(&initial, arrays, elements) {
            Ok(()) => {
                self.symmetry = SymmetryUse::Applied {
                    closed_cycle: false,
                };
                self.findings.warn(format!(
                    "{note}; the implementation is explored one representative per orbit \
                     (its input elements renamed as they are read)"
                ));
            }
            Err(reason) => self.findings.warn(format!(
                "{note}; the reduction does not apply to the implementation ({reason}), \
                 so it is explored in full"
            )),
        }
        Ok(())
    }

    /// Records a violation of a joint assertion found on the implementation's
    /// path `path` (its start and steps) paired with a specification path.
    fn report_joint(
        &mut self,
        (start, steps): (&E::State, &[E::Step]),
        violation: Violation,
        pc: &E::Value,
    ) -> Result<(), EngineError> {
        let span = &violation.span;
        let property = Property::CollectiveAssertion;
        if !self
            .findings
            .is_new(property, &span.file, span.start_line, span.start_column)
        {
            return Ok(());
        }
        let imp = &mut *self.imp;
        let trace = replay(imp, start.clone(), steps, Some("impl"))?.trace;
        let path_condition = imp.pretty_condition(pc);
        let (inputs, fixed) = (imp.input_names(), imp.fixed_inputs());
        let imp = &*imp;
        let report = violation_report(violation, property, trace, path_condition, |given| {
            complete_witness(given, &inputs, &fixed, || imp.no_witness_reason())
        });
        self.findings.violations.push(report);
        Ok(())
    }

    /// The first output of `impl_state` not proved equal to the specification's
    /// (`outputs_s`) under `pc`; a proved difference wins over an undecided one.
    fn first_mismatch(
        &mut self,
        pc: &E::Value,
        outputs_s: &[(String, E::Value)],
        outputs_i: &[(String, E::Value)],
    ) -> Option<OutputMismatch<E::Value>> {
        let mut mismatch = None;
        for (name, s) in outputs_s {
            let Some((_, i)) = outputs_i.iter().find(|(n, _)| n == name) else {
                continue; // signatures were checked: cannot happen
            };
            if let Some(m) = self.imp.compare_output(
                pc,
                OutputPair {
                    name,
                    spec: s,
                    imp: i,
                },
            ) {
                let proved = matches!(m.answer, Equality::Different(_));
                if mismatch.is_none() || proved {
                    mismatch = Some(m);
                }
                if proved {
                    break;
                }
            }
        }
        mismatch
    }

    /// The `not-equivalent` violation for output mismatch `m` of the two paths,
    /// reported at `(file, line, column)`, with both traces (the paths replayed).
    fn difference(
        &mut self,
        m: OutputMismatch<E::Value>,
        paths: PairedPaths<'_, E>,
        (file, line, column): (String, u32, u32),
    ) -> Result<ViolationReport, EngineError> {
        let (spec, imp) = (&mut *self.spec, &mut *self.imp);
        let spec_trace = paths.spec.trace(spec, "spec")?;
        let trace = paths.imp.trace(imp, "impl")?;
        // Found under values made up at an invariant loop's entry: possible.
        let made_up = imp.leans_on_loop_values(&[&paths.pc, &m.spec, &m.imp]);
        let (certainty, (witness, witness_missing)) = match m.answer {
            Equality::Different(model) if made_up => (
                Certainty::Possible,
                complete_witness(model, &imp.input_names(), &imp.fixed_inputs(), || {
                    imp.no_witness_reason()
                }),
            ),
            Equality::Different(model) => (
                Certainty::Provable,
                complete_witness(model, &imp.input_names(), &imp.fixed_inputs(), || {
                    imp.no_witness_reason()
                }),
            ),
            Equality::Unknown => (
                Certainty::Possible,
                (
                    Witness::Unavailable(
                        "the prover could not decide whether the outputs differ".into(),
                    ),
                    Vec::new(),
                ),
            ),
        };
        // Each process has its own copy of an output: say which one counts.
        let whose = if self.options.spec_procs > 1 || self.options.impl_procs > 1 {
            " (rank 0's copies)"
        } else {
            ""
        };
        let spec_text = spec.pretty(&m.spec);
        let impl_text = imp.pretty(&m.imp);
        let first = match imp.first_difference(&m.spec, &m.imp) {
            Some((x, y)) => {
                format!("; the trees first differ at {x} (specification) and {y} (implementation)")
            }
            None => String::new(),
        };
        Ok(ViolationReport {
            property: Property::NotEquivalent,
            certainty,
            message: format!(
                "output `{}` can differ: the specification computes {spec_text}, \
                 the implementation {impl_text}{whose}{first}",
                m.element
            ),
            file,
            line,
            column,
            process: 0,
            trace,
            path_condition: imp.pretty_condition(&paths.pc),
            claim: format!("{spec_text} == {impl_text}"),
            witness,
            witness_missing,
            difference: Some(OutputDifference {
                output: m.element,
                spec_value: spec_text,
                impl_value: impl_text,
                spec_trace,
            }),
            snapshots: None,
        })
    }
}

/// A completed path of each program whose conditions can hold together (`pc`).
struct PairedPaths<'p, E: Engine> {
    spec: OnePath<'p, E>,
    imp: OnePath<'p, E>,
    pc: E::Value,
}

/// One program's path of a [`PairedPaths`]: where it starts and its steps.
struct OnePath<'p, E: Engine> {
    initial: &'p E::State,
    steps: &'p [E::Step],
}

impl<E: Engine> OnePath<'_, E> {
    /// The path replayed for its trace, the trace's steps labelled with
    /// which program they are of (`spec` or `impl`).
    fn trace(&self, engine: &mut E, label: &str) -> Result<Vec<TraceStep>, EngineError> {
        Ok(replay(engine, self.initial.clone(), self.steps, Some(label))?.trace)
    }
}

/// Ctrl-C or the time limit during the pairwise comparison.
fn interrupted(options: &Options, findings: &Findings) -> Option<Limit> {
    if options
        .cancel
        .as_ref()
        .is_some_and(|c| c.load(Ordering::Relaxed))
    {
        return Some(Limit::Cancelled);
    }
    if options
        .timeout
        .is_some_and(|t| findings.started.elapsed() >= t)
    {
        return Some(Limit::Timeout);
    }
    if options
        .max_memory
        .is_some_and(|max| tass_search::api::resident_bytes().is_some_and(|rss| rss > max))
    {
        return Some(Limit::Memory);
    }
    None
}

/// `c[1][2]` -> `c`.
fn base_name(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}
