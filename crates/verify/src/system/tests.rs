use tass_model::api::Span;
use tass_semantics::api::{Certainty, EngineError, Property as EngineProperty, Violation};

use super::verify_with;
use crate::engine::{Engine, Executed, OutputMismatch, OutputPair, StepInfo, Uncovered};
use crate::options::Options;
use crate::report::{Property, Verdict};

/// Two processes: process 0 flips `a` between 0 and 1 forever; process 1
/// takes two steps, the first of which fails a check. The "reduction"
/// always explores process 0 alone when it can move, which would ignore
/// process 1 forever without the cycle proviso.
pub(super) struct Spin;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) struct SpinState {
    pub a: u8,
    pub b: u8,
}

fn span(line: u32) -> Span {
    Span::point("spin.c".into(), line, 1)
}

impl Engine for Spin {
    type State = SpinState;
    type Key = SpinState;
    type Step = usize;
    type Value = String;
    type JointHistory = ();

    fn initial_state(&mut self) -> Result<SpinState, EngineError> {
        Ok(SpinState { a: 0, b: 0 })
    }
    fn enabled(&mut self, s: &SpinState) -> Result<Vec<usize>, EngineError> {
        Ok(if s.b < 2 { vec![0, 1] } else { vec![0] })
    }
    fn reduce(&mut self, _: &SpinState, steps: Vec<usize>) -> Vec<usize> {
        steps.into_iter().filter(|&p| p == 0).collect()
    }
    fn execute(&mut self, mut s: SpinState, p: &usize) -> Result<Executed<SpinState>, EngineError> {
        let mut violations = Vec::new();
        if *p == 0 {
            s.a = 1 - s.a;
        } else {
            if s.b == 0 {
                violations.push(Violation {
                    property: EngineProperty::Assertion,
                    certainty: Certainty::Provable,
                    message: "process 1 fails".into(),
                    span: span(7),
                    process: 1,
                    witness: None,
                    claim: "false".into(),
                    snapshots: None,
                });
            }
            s.b += 1;
        }
        Ok(Executed {
            state: s,
            violations,
            changes: Vec::new(),
            mpi_calls: Vec::new(),
        })
    }
    fn is_terminated(&self, _: &SpinState) -> bool {
        false
    }
    fn final_violations(&mut self, _: &SpinState) -> Vec<Violation> {
        Vec::new()
    }
    fn canonicalize(&mut self, s: SpinState) -> SpinState {
        s
    }
    fn saved_key(&mut self, s: &SpinState) -> SpinState {
        s.clone()
    }
    fn at_join_location(&self, _: &SpinState) -> bool {
        true
    }
    fn step_info(&self, p: &usize) -> StepInfo {
        StepInfo {
            span: span(3 + *p as u32),
            process: *p,
            source: format!("step of {p}"),
        }
    }
    fn is_local(&self, _: &usize) -> bool {
        true
    }
    fn process_of(&self, p: &usize) -> usize {
        *p
    }
    fn path_condition(&self, _: &SpinState) -> String {
        "true".into()
    }
    fn pretty(&self, v: &String) -> String {
        v.clone()
    }
    fn outputs(&mut self, _: &SpinState) -> Vec<(String, String)> {
        Vec::new()
    }
    fn compare_output(
        &mut self,
        _: &String,
        _: OutputPair<'_, String>,
    ) -> Option<OutputMismatch<String>> {
        None
    }
    fn output_values(&mut self, _: &SpinState) -> Vec<(String, String)> {
        Vec::new()
    }
    fn and(&self, a: &String, b: &String) -> String {
        format!("{a} && {b}")
    }
    fn covers(&mut self, _: &[String], _: &[String]) -> Result<(), Uncovered> {
        Ok(())
    }
    fn counters(&self) -> (u64, u64, u64) {
        (0, 0, 0)
    }
    fn input_names(&self) -> Vec<String> {
        Vec::new()
    }
    fn no_witness_reason(&self) -> String {
        "none".into()
    }
}

#[test]
fn cycle_proviso_expands_a_state_that_closes_a_cycle() {
    let options = Options {
        max_states: Some(10_000),
        ..Options::default()
    };
    let r = verify_with(&mut Spin, &options, 2);
    assert_eq!(r.verdict, Verdict::Violated, "{r:?}");
    assert_eq!(r.violations[0].property, Property::Assertion);
    assert_eq!(r.violations[0].line, 7);
    // The trace: process 0 goes round (the state it returns to is explored
    // again with every step), then process 1 fails.
    let processes: Vec<usize> = r.violations[0].trace.iter().map(|s| s.process).collect();
    assert_eq!(processes.last(), Some(&1), "{processes:?}");
    assert!(processes[..processes.len() - 1].iter().all(|&p| p == 0));
}

#[test]
fn cycle_proviso_explores_everything_and_ends() {
    let options = Options {
        max_states: Some(10_000),
        max_violations: 0,
        ..Options::default()
    };
    let r = verify_with(&mut Spin, &options, 2);
    // Complete (not stopped by the state limit): 2 x 3 states, each
    // re-expanded at most once.
    assert_eq!(r.verdict, Verdict::Violated);
    assert!(!r.stopped_early);
    assert!(r.stats.states_seen < 10_000, "{:?}", r.stats);
    assert!(r.stats.states_saved <= 12, "{:?}", r.stats);
}
