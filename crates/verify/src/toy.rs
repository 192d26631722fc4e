//! A toy engine for testing the search, reports and comparison without the real
//! engine: a single counter program with a configurable bug.

use tass_model::api::Span;
use tass_semantics::api::{Certainty, EngineError, Property, Violation};

use crate::engine::{Engine, Equality, Executed, OutputMismatch, OutputPair, StepInfo, Uncovered};
use crate::report::Change;

/// `x = 0; while (x < limit) { x += step_a or step_b (nondeterministic) }
/// assert(x != bad)`; output `y = x * scale`.
#[derive(Clone)]
pub(crate) struct Toy {
    pub limit: i64,
    pub bad: Option<i64>,
    pub scale: i64,
    pub fail_at: Option<i64>,
    /// Only steps of 1 (a deterministic program, for compare).
    pub deterministic: bool,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct ToyState {
    pub loc: u8,
    pub x: i64,
    pub pc: String,
}

fn span(line: u32) -> Span {
    Span::point("toy.c".into(), line, 1)
}

impl Engine for Toy {
    type State = ToyState;
    type Key = ToyState;
    type Step = u8;
    type Value = String;
    type JointHistory = ();

    fn initial_state(&mut self) -> Result<ToyState, EngineError> {
        Ok(ToyState {
            loc: 0,
            x: 0,
            pc: "true".into(),
        })
    }
    fn enabled(&mut self, s: &ToyState) -> Result<Vec<u8>, EngineError> {
        Ok(match s.loc {
            0 if s.x < self.limit && self.deterministic => vec![1],
            0 if s.x < self.limit => vec![1, 2],
            0 => vec![0],
            1 => vec![9],
            _ => vec![],
        })
    }
    fn execute(&mut self, mut s: ToyState, step: &u8) -> Result<Executed<ToyState>, EngineError> {
        let mut violations = vec![];
        let mut changes = vec![];
        match *step {
            1 | 2 => {
                s.x += i64::from(*step);
                if Some(s.x) == self.fail_at {
                    return Err(EngineError::unsupported("a toy construct", &span(3)));
                }
                changes.push(Change {
                    variable: "x".into(),
                    value: s.x.to_string(),
                });
            }
            0 => {
                s.loc = 1;
                if Some(s.x) == self.bad {
                    violations.push(Violation {
                        property: Property::Assertion,
                        certainty: Certainty::Provable,
                        message: "assertion can fail".into(),
                        span: span(5),
                        process: 0,
                        witness: None,
                        claim: format!("x != {}", s.x),
                        snapshots: None,
                    });
                }
            }
            _ => s.loc = 2,
        }
        Ok(Executed {
            state: s,
            violations,
            changes,
            mpi_calls: Vec::new(),
        })
    }
    fn is_terminated(&self, s: &ToyState) -> bool {
        s.loc == 2
    }
    fn final_violations(&mut self, _: &ToyState) -> Vec<Violation> {
        vec![]
    }
    fn canonicalize(&mut self, s: ToyState) -> ToyState {
        s
    }
    fn saved_key(&mut self, s: &ToyState) -> ToyState {
        s.clone()
    }
    fn at_join_location(&self, s: &ToyState) -> bool {
        s.loc == 0
    }
    fn step_info(&self, step: &u8) -> StepInfo {
        StepInfo {
            span: span(u32::from(*step) + 2),
            process: 0,
            source: format!("step {step}"),
        }
    }
    fn is_local(&self, _: &u8) -> bool {
        true
    }
    fn process_of(&self, _: &u8) -> usize {
        0
    }
    fn path_condition(&self, s: &ToyState) -> String {
        s.pc.clone()
    }
    fn pretty(&self, v: &String) -> String {
        v.clone()
    }
    fn outputs(&mut self, s: &ToyState) -> Vec<(String, String)> {
        vec![("y".into(), (s.x * self.scale).to_string())]
    }
    fn compare_output(
        &mut self,
        _: &String,
        pair: OutputPair<'_, String>,
    ) -> Option<OutputMismatch<String>> {
        (pair.spec != pair.imp).then(|| OutputMismatch {
            element: pair.name.to_string(),
            spec: pair.spec.clone(),
            imp: pair.imp.clone(),
            answer: Equality::Different(Some(vec![("N".into(), "1".into())])),
        })
    }
    fn and(&self, a: &String, b: &String) -> String {
        format!("{a} && {b}")
    }
    fn output_values(&mut self, state: &ToyState) -> Vec<(String, String)> {
        vec![("y".to_string(), (state.x * self.scale).to_string())]
    }
    /// The toy program ends on every input, so its paths cover each other.
    fn covers(&mut self, _domain: &[String], _cover: &[String]) -> Result<(), Uncovered> {
        Ok(())
    }
    fn counters(&self) -> (u64, u64, u64) {
        (0, 0, 0)
    }
    fn input_names(&self) -> Vec<String> {
        vec!["N".into()]
    }
    fn no_witness_reason(&self) -> String {
        "the toy prover gives none".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::compare_with;
    use crate::options::Options;
    use crate::report::{Property as P, Verdict, Witness};
    use crate::system::verify_with;

    fn toy(bad: Option<i64>) -> Toy {
        Toy {
            limit: 4,
            bad,
            scale: 1,
            fail_at: None,
            deterministic: false,
        }
    }

    fn impl_model() -> tass_model::api::Model {
        use tass_model::api::{FunctionId, ModelBuilder};
        ModelBuilder::new("impl.c").finish(FunctionId(0))
    }

    #[test]
    fn correct_program_holds_and_saves_only_loop_heads() {
        let r = verify_with(&mut toy(None), &Options::default(), 1);
        assert_eq!(r.verdict, Verdict::Holds);
        // x ranges over 0..=5 at the loop head: 6 distinct states saved.
        assert_eq!(r.stats.states_saved, 6);
        assert!(r.stats.states_seen > r.stats.states_saved);
    }

    #[test]
    fn first_violation_stops_with_trace_and_hint() {
        let r = verify_with(&mut toy(Some(4)), &Options::default(), 1);
        assert_eq!(r.verdict, Verdict::Violated);
        assert_eq!(r.violations.len(), 1);
        let v = &r.violations[0];
        assert_eq!(v.property, P::Assertion);
        assert_eq!(v.line, 5);
        assert_eq!(v.claim, "x != 4");
        // DFS takes step 1 first: x = 1, 2, 3, 4, then leaves the loop.
        let xs: Vec<&str> = v
            .trace
            .iter()
            .flat_map(|s| &s.changes)
            .map(|c| c.value.as_str())
            .collect();
        assert_eq!(xs, ["1", "2", "3", "4"]);
        assert!(r.stopped_early);
        assert_eq!(
            v.witness,
            Witness::Unavailable("the toy prover gives none".into())
        );
    }

    #[test]
    fn violations_are_deduplicated_by_location() {
        let mut t = toy(Some(4));
        let options = Options {
            max_violations: 0,
            ..Options::default()
        };
        let r = verify_with(&mut t, &options, 1);
        // Reached several times (x = 4 by different paths is one saved state, but
        // the check happens on the step into the assert), reported once.
        assert_eq!(r.violations.len(), 1);
        assert!(!r.stopped_early);
    }

    #[test]
    fn state_limit_is_inconclusive_and_errors_are_errors() {
        let options = Options {
            max_states: Some(3),
            ..Options::default()
        };
        let r = verify_with(&mut toy(None), &options, 1);
        assert_eq!(r.verdict, Verdict::Inconclusive);
        assert!(r
            .inconclusive_reason
            .as_deref()
            .unwrap()
            .contains("--max-states 3"));
        let mut t = toy(None);
        t.fail_at = Some(2);
        let r = verify_with(&mut t, &Options::default(), 1);
        assert_eq!(r.verdict, Verdict::Error);
        assert!(r.error.as_deref().unwrap().contains("a toy construct"));
    }

    #[test]
    fn compare_finds_differing_outputs() {
        let det = || Toy {
            deterministic: true,
            ..toy(None)
        };
        let mut spec = det();
        let mut same = det();
        let r = compare_with(&mut spec, &mut same, &impl_model(), &Options::default());
        assert_eq!(r.verdict, Verdict::Holds);
        let mut other = det();
        other.scale = 2;
        let r = compare_with(&mut spec, &mut other, &impl_model(), &Options::default());
        assert_eq!(r.verdict, Verdict::Violated);
        let v = &r.violations[0];
        assert_eq!(v.property, P::NotEquivalent);
        let d = v.difference.as_ref().unwrap();
        assert_eq!(d.output, "y");
        assert_ne!(d.spec_value, d.impl_value);
        assert!(!d.spec_trace.is_empty());
        assert_eq!(v.witness, Witness::Values(vec![("N".into(), "1".into())]));
        // A nondeterministic implementation (x ends as 4 or 5) is not equivalent
        // to a deterministic one.
        let r = compare_with(
            &mut spec,
            &mut toy(None),
            &impl_model(),
            &Options::default(),
        );
        assert_eq!(r.verdict, Verdict::Violated);
    }
}
