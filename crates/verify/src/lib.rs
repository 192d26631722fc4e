//! `tass-verify`: the transition system, reductions, predicates, reports.
//!
//! This crate turns the execution engine (`tass-state`) into a verifier. It builds
//! the transition system of a model — states, the steps enabled in each, the
//! checks of every step and, at final states, the termination checks (memory
//! leaks; a stuck state whose path condition is satisfiable is a deadlock) — and
//! hands it to the generic depth-first search of `tass-search`, with:
//!
//! - the **state-saving heuristic** of the TASS paper (Sec. 5.4): a state is saved
//!   (canonicalized and looked up in the canonic store) only where it may be seen
//!   again: at `while`/`do` loop heads and locations with several incoming edges
//!   (not at `if` joins nor `for` heads, as in the paper), and, with several
//!   processes, wherever steps of more than one process are enabled or the last
//!   step was another process's or communicated. Saving more is always correct;
//!   states with one enabled step are never pushed (the search runs them in place);
//! - **limits**: `--max-states`, `--timeout` and a cancel flag (Ctrl-C) end the
//!   search with verdict `inconclusive` and the statistics so far;
//! - **counterexamples**: a violation's path is replayed to give one trace step per
//!   transition (file:line, process, source text, changed variables with their new
//!   symbolic values), the path condition, the violated claim, and a **witness**
//!   (concrete inputs from the prover's model, or why there is none). Violations
//!   are deduplicated by (property, location); by default the search stops at the
//!   first ([`api::Options::max_violations`], 0 = all);
//! - **comparison** ([`api::compare`]): comparative symbolic execution of a
//!   specification and an implementation sharing their inputs, proving their
//!   outputs equal on every pair of consistent terminal paths (`not-equivalent`).
//!
//! Verdicts and exit codes: `holds` (0) only when the search completed, nothing was
//! violated and nothing was left to chance; `violated` (1) when a violation was
//! found — a `possible` one (the prover could not rule it out) counts, marked with
//! its certainty; `error` (2) for bad input or an unsupported construct met at run
//! time; `inconclusive` (3) when a limit ended the search first. A [`api::Report`]
//! renders as text, as DESIGN.md's JSON object, or as SARIF.
//!
//! ```
//! use tass_model::api::*;
//! use tass_verify::api::{verify, Options, ProverChoice, Verdict};
//!
//! // int main() { assert(false); return 0; }  built by hand
//! let span = Span::point("m.c".into(), 1, 14);
//! let mut graph = BodyGraph::new();
//! let loc = |kind| Location { kind, span: span.clone(), invariants: vec![] };
//! let entry = graph.add_node(loc(LocationKind::Plain));
//! let middle = graph.add_node(loc(LocationKind::Plain));
//! let exit = graph.add_node(loc(LocationKind::Exit));
//! let transition = |statement, text: &str| Transition {
//!     guard: Expr::true_at(span.clone()),
//!     statement,
//!     span: span.clone(),
//!     source_text: text.into(),
//! };
//! let never = Expr::new(ExprKind::BoolLit(false), Type::Bool, span.clone());
//! graph.add_edge(entry, middle, transition(
//!     Statement::Assert { condition: never, origin: AssertOrigin::CAssert },
//!     "assert(false);",
//! ));
//! graph.add_edge(middle, exit, transition(
//!     Statement::Return { value: Some(Expr::int(0, span.clone())) },
//!     "return 0;",
//! ));
//! let main = Function {
//!     id: FunctionId(0), name: "main".into(), params: vec![], locals: vec![],
//!     return_type: Type::INT, kind: FunctionKind::User,
//!     body: Some(Body { graph, entry }), span: span.clone(),
//! };
//! let model = Model {
//!     name: "m.c".into(), variables: vec![], structs: vec![], functions: vec![main],
//!     inputs: vec![], outputs: vec![], globals: vec![], main: FunctionId(0),
//!     mpi_status_struct: None, uses_mpi: false, ltl: vec![],
//! };
//!
//! let options = Options { prover: ProverChoice::Builtin, ..Options::default() };
//! let report = verify(&model, &options);
//! assert_eq!(report.verdict, Verdict::Violated);
//! assert_eq!(report.exit_code(), 1);
//! let violation = &report.violations[0];
//! assert_eq!(violation.property.id(), "assertion");
//! assert_eq!((violation.file.as_str(), violation.line), ("m.c", 1));
//! assert_eq!(report.to_json()["violations"][0]["property"], "assertion");
//! ```

pub mod api;
mod collective_assert;
mod compare;
mod engine;
mod error;
mod loop_invariant;
mod ltl;
mod options;
mod por;
mod real;
mod report;
mod signature;
mod split;
mod symmetry;
mod system;
#[cfg(test)]
mod toy;
