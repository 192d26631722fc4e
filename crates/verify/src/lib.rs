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
//! // int main() { assert(false); return 0; }  built by hand: line 2 asserts
//! let mut m = ModelBuilder::new("m.c");
//! let never = Expr::new(ExprKind::BoolLit(false), Type::Bool, m.span(2));
//! let mut body = m.body();
//! body.then(Statement::Assert { condition: never, origin: AssertOrigin::CAssert });
//! body.ret(Some(Expr::int(0, m.span(3))));
//! m.add_function(body.function(FunctionId(0), "main", vec![], vec![], Type::INT));
//! let model = m.finish(FunctionId(0));
//!
//! let options = Options { prover: ProverChoice::Builtin, ..Options::default() };
//! let report = verify(&model, &options);
//! assert_eq!(report.verdict, Verdict::Violated);
//! assert_eq!(report.exit_code(), 1);
//! let violation = &report.violations[0];
//! assert_eq!(violation.property.id(), "assertion");
//! assert_eq!((violation.file.as_str(), violation.line), ("m.c", 2));
//! assert_eq!(report.to_json()["violations"][0]["property"], "assertion");
//! ```

pub mod api;
mod collective_assert;
mod compare;
mod engine;
mod error;
mod loop_invariant;
mod loop_participation;
mod ltl;
mod options;
mod por;
mod real;
mod report;
mod saved_dump;
mod shared_store;
mod signature;
mod split;
mod symmetry;
mod system;
#[cfg(test)]
mod toy;
