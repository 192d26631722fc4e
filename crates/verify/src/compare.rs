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
use tass_search::api::{Limit, Search, SearchStats};

use tass_semantics::api::Violation;

use crate::engine::{Engine, Equality};
use crate::options::Options;
use crate::report::{Certainty, OutputDifference, Property, Report, ViolationReport, Witness};
use crate::system::{
    complete_witness, finish, limits_now, replay, Ending, Findings, Mode, ModelSystem,
};

fn add_stats(total: &mut SearchStats, more: &SearchStats) {
    total.states_seen += more.states_seen;
    total.states_saved += more.states_saved;
    total.states_matched += more.states_matched;
    total.transitions += more.transitions;
    total.states_pushed += more.states_pushed;
    total.max_depth = total.max_depth.max(more.max_depth);
}

/// Runs the comparison. `impl_model` gives the location reported for a differing
/// output (its declaration in the implementation).
pub(crate) fn compare_with<E: Engine>(
    spec: &mut E,
    imp: &mut E,
    impl_model: &Model,
    options: &Options,
) -> Report {
    let mut findings = Findings::new(options);
    let mut total = SearchStats::default();
    let ending = run(spec, imp, impl_model, options, &mut findings, &mut total);
    finish(imp, findings, ending, total, options)
}

/// Explores one model to the end, collecting its terminal states.
#[allow(clippy::type_complexity)]
fn explore<E: Engine>(
    engine: &mut E,
    label: &'static str,
    nprocs: usize,
    options: &Options,
    findings: &mut Findings,
    total: &mut SearchStats,
) -> Result<(E::State, Vec<(E::State, Vec<E::Step>)>), Ending> {
    let initial = engine.initial_state().map_err(Ending::Error)?;
    let search = Search::new(limits_now(options, findings.started, total.states_seen));
    let mut system = ModelSystem::new(
        engine,
        findings,
        Mode::CollectTerminals,
        initial.clone(),
        Some(label),
        nprocs,
    );
    let report = search.run(&mut system, initial.clone());
    add_stats(total, &report.stats);
    match system.ending(report.outcome) {
        Ending::Complete => Ok((initial, std::mem::take(&mut system.terminals))),
        other => Err(other),
    }
}

fn run<E: Engine>(
    spec: &mut E,
    imp: &mut E,
    impl_model: &Model,
    options: &Options,
    findings: &mut Findings,
    total: &mut SearchStats,
) -> Ending {
    let (spec_initial, spec_terminals) =
        match explore(spec, "spec", options.spec_procs, options, findings, total) {
            Ok(x) => x,
            Err(ending) => return ending,
        };
    // The implementation's joint assertions are checked against these as its
    // search reaches them.
    let spec_joint = spec_terminals
        .iter()
        .map(|(s, _)| (spec.path_condition(s), spec.joint_history(s)))
        .collect();
    imp.set_spec_joint(spec_joint);
    let (impl_initial, impl_terminals) =
        match explore(imp, "impl", options.impl_procs, options, findings, total) {
            Ok(x) => x,
            Err(ending) => return ending,
        };
    for (spec_state, spec_path) in &spec_terminals {
        let pc_s = spec.path_condition(spec_state);
        let outputs_s = spec.outputs(spec_state);
        for (impl_state, impl_path) in &impl_terminals {
            if let Some(limit) = interrupted(options, findings) {
                return Ending::Limit(limit);
            }
            let pc_i = imp.path_condition(impl_state);
            if imp.disjoint(&pc_s, &pc_i) {
                continue;
            }
            let pc = imp.and(&pc_s, &pc_i);
            // Step-wise: the joint assertions, occurrence by occurrence.
            match imp.check_joint(impl_state, &spec.joint_history(spec_state), &pc) {
                Err(error) => return Ending::Error(error),
                Ok(Some(violation)) => {
                    let path = (&impl_initial, impl_path.as_slice());
                    if let Err(error) = report_joint(imp, path, violation, &pc, findings) {
                        return Ending::Error(error);
                    }
                    if findings.budget_spent() {
                        findings.stopped_early = true;
                        return Ending::Stopped;
                    }
                }
                Ok(None) => {}
            }
            let outputs_i = imp.outputs(impl_state);
            // The first output not proved equal; a proved difference wins over an
            // undecided one.
            let mut mismatch = None;
            for (name, s) in &outputs_s {
                let Some((_, i)) = outputs_i.iter().find(|(n, _)| n == name) else {
                    continue; // signatures were checked: cannot happen
                };
                if let Some(m) = imp.compare_output(&pc, name, s, i) {
                    let proved = matches!(m.answer, Equality::Different(_));
                    if mismatch.is_none() || proved {
                        mismatch = Some(m);
                    }
                    if proved {
                        break;
                    }
                }
            }
            let Some(m) = mismatch else { continue };
            let declared = impl_model
                .global_by_name(base_name(&m.element))
                .map(|v| v.span.clone());
            let (file, line, column) = match &declared {
                Some(span) => (span.file.to_string(), span.start_line, span.start_column),
                None => (impl_model.name.clone(), 0, 0),
            };
            if !findings.is_new(Property::NotEquivalent, &file, line, column) {
                continue;
            }
            let spec_trace = match replay(spec, spec_initial.clone(), spec_path, Some("spec")) {
                Ok(replayed) => replayed.trace,
                Err(error) => return Ending::Error(error),
            };
            let trace = match replay(imp, impl_initial.clone(), impl_path, Some("impl")) {
                Ok(replayed) => replayed.trace,
                Err(error) => return Ending::Error(error),
            };
            let (certainty, (witness, witness_missing)) = match m.answer {
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
            let whose = if options.spec_procs > 1 || options.impl_procs > 1 {
                " (rank 0's copies)"
            } else {
                ""
            };
            let spec_text = spec.pretty(&m.spec);
            let impl_text = imp.pretty(&m.imp);
            findings.violations.push(ViolationReport {
                property: Property::NotEquivalent,
                certainty,
                message: format!(
                    "output `{}` can differ: the specification computes {spec_text}, \
                     the implementation {impl_text}{whose}",
                    m.element
                ),
                file,
                line,
                column,
                process: 0,
                trace,
                path_condition: imp.pretty_condition(&pc),
                claim: format!("{spec_text} == {impl_text}"),
                witness,
                witness_missing,
                difference: Some(OutputDifference {
                    output: m.element,
                    spec_value: spec_text,
                    impl_value: impl_text,
                    spec_trace,
                }),
            });
            if findings.budget_spent() {
                findings.stopped_early = true;
                return Ending::Stopped;
            }
        }
    }
    // Pairs of completed paths were compared; an input on which the specification
    // completes but the implementation never does was not (paper: both terminate).
    let domain: Vec<_> = spec_terminals
        .iter()
        .map(|(s, _)| spec.path_condition(s))
        .collect();
    let cover: Vec<_> = impl_terminals
        .iter()
        .map(|(s, _)| imp.path_condition(s))
        .collect();
    if let Err(reason) = imp.covers(&domain, &cover) {
        return Ending::Unchecked(reason);
    }
    Ending::Complete
}

/// Records a violation of a joint assertion found on the implementation's
/// path `path` (its start and steps) paired with a specification path.
fn report_joint<E: Engine>(
    imp: &mut E,
    (start, steps): (&E::State, &[E::Step]),
    violation: Violation,
    pc: &E::Value,
    findings: &mut Findings,
) -> Result<(), tass_semantics::api::EngineError> {
    let span = &violation.span;
    let property = Property::CollectiveAssertion;
    if !findings.is_new(property, &span.file, span.start_line, span.start_column) {
        return Ok(());
    }
    let trace = replay(imp, start.clone(), steps, Some("impl"))?.trace;
    let (witness, witness_missing) = complete_witness(
        violation.witness,
        &imp.input_names(),
        &imp.fixed_inputs(),
        || imp.no_witness_reason(),
    );
    findings.violations.push(ViolationReport {
        property,
        certainty: match violation.certainty {
            tass_semantics::api::Certainty::Provable => Certainty::Provable,
            tass_semantics::api::Certainty::Possible => Certainty::Possible,
        },
        message: violation.message,
        file: span.file.to_string(),
        line: span.start_line,
        column: span.start_column,
        process: violation.process,
        trace,
        path_condition: imp.pretty_condition(pc),
        claim: violation.claim,
        witness,
        witness_missing,
        difference: None,
    });
    Ok(())
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
    None
}

/// `c[1][2]` -> `c`.
fn base_name(name: &str) -> &str {
    name.split('[').next().unwrap_or(name)
}
