//! The provers: built-in only, and hybrid (built-in first, then SMT back ends).

use std::sync::Arc;
use std::time::{Duration, Instant};

use hashbrown::HashMap;
use parking_lot::Mutex;
use tass_simplify::api::SimplifierCache;
use tass_symbolic::api::{Expr, ExprFactory};

use crate::builtin;
use crate::float_literals;
use crate::prover::{Answer, Effort, Prover, ProverStats, Validity, BRANCH_LIMIT};
use crate::smt::{SatOutcome, SmtQuery, SmtSolver};
use crate::translate;
use crate::witness::RecentWitnesses;

/// Bounds on the caches: a long search asks about many path conditions; the caches
/// are dropped wholesale when full (they only save time).
const MAX_CACHED_ANSWERS: usize = 1 << 18;
const MAX_CACHED_SIMPLIFIERS: usize = 1 << 14;
/// Most quotient atoms a query may have for the built-in prover to retry it
/// with them expanded into rational functions (whose size grows exponentially
/// with their number: jacobi's iterates over all diagonal entries).
const EXPANDED_ATOMS: usize = 10;

/// How a back end is asked.
#[derive(Clone, Copy)]
enum Role {
    /// Every query the built-in prover leaves open, with the back end's limit.
    Main,
    /// Nonlinear queries only, first, with [`BRANCH_LIMIT`].
    Helper,
}

#[derive(Default)]
struct Counters {
    queries: u64,
    cache_hits: u64,
    builtin_calls: u64,
    builtin_decided: u64,
    time: Duration,
}

/// Shared machinery of both provers.
struct Engine {
    f: Arc<ExprFactory>,
    builtin: bool,
    simplifiers: SimplifierCache,
    recent_witnesses: RecentWitnesses,
    backends: Vec<Mutex<SmtSolver>>,
    /// Asked with [`BRANCH_LIMIT`] about nonlinear queries only, before the
    /// others (cvc5 under `--prover auto`: it answers or gives up quickly where
    /// z3 and yices often spend their whole limits).
    nonlinear_helper: Option<Mutex<SmtSolver>>,
    cache: Mutex<HashMap<(Expr, Expr), Answer>>,
    counters: Mutex<Counters>,
}

impl Engine {
    /// The built-in prover first, then `backends` in order.
    fn new(factory: Arc<ExprFactory>, backends: Vec<SmtSolver>) -> Engine {
        Engine {
            simplifiers: SimplifierCache::new(factory.clone()),
            recent_witnesses: RecentWitnesses::default(),
            f: factory,
            builtin: true,
            backends: backends.into_iter().map(Mutex::new).collect(),
            nonlinear_helper: None,
            cache: Mutex::new(HashMap::new()),
            counters: Mutex::new(Counters::default()),
        }
    }

    fn answer(&self, assumption: Expr, predicate: Expr, effort: Effort) -> Answer {
        let started = Instant::now();
        self.counters.lock().queries += 1;
        if let Some(hit) = self.cache.lock().get(&(assumption, predicate)).cloned() {
            let mut c = self.counters.lock();
            c.cache_hits += 1;
            c.time += started.elapsed();
            return hit;
        }
        let answer = self.decide(assumption, predicate, effort);
        // `Maybe` is not cached: it may come from a transient solver failure (the SMT
        // layer caches the solver's own `unknown`s and time-outs by query text).
        if answer.validity != Validity::Maybe {
            let mut cache = self.cache.lock();
            if cache.len() >= MAX_CACHED_ANSWERS {
                cache.clear();
            }
            cache.insert((assumption, predicate), answer.clone());
        }
        self.counters.lock().time += started.elapsed();
        answer
    }

    /// The built-in answer on the query with its quotient atoms expanded into
    /// rational functions (`tass-symbolic`'s `quotient.rs`), when the factory
    /// keeps quotients as atoms and the query has a few of them: two forms that
    /// differ (`a/b + c/b` and `(a+c)/b`) may still be equal values. `No` counts
    /// only with a point that refutes the original query, evaluated exactly.
    fn decide_expanded(&self, assumption: Expr, predicate: Expr, tries: usize) -> Option<Answer> {
        let f = &*self.f;
        if !f.quotient_atoms_enabled() {
            return None;
        }
        let atoms = f.quotient_atom_count(assumption, EXPANDED_ATOMS)
            + f.quotient_atom_count(predicate, EXPANDED_ATOMS);
        if atoms == 0 || atoms > EXPANDED_ATOMS {
            return None;
        }
        let answer = f.with_quotients_expanded(|| {
            let a = f.expand_quotients(assumption);
            let p = f.expand_quotients(predicate);
            if (a, p) == (assumption, predicate) {
                return None;
            }
            Some(builtin::decide(
                f,
                &self.simplifiers,
                &self.recent_witnesses,
                a,
                p,
                tries,
            ))
        })?;
        match answer.validity {
            Validity::Yes => Some(answer),
            Validity::No => self
                .recent_witnesses
                .refute(f, assumption, predicate)
                .map(|model| Answer::no(Some(model))),
            Validity::Maybe => None,
        }
    }

    fn decide(&self, assumption: Expr, predicate: Expr, effort: Effort) -> Answer {
        let f = &*self.f;
        if self.builtin {
            self.counters.lock().builtin_calls += 1;
            if let Some(valid) = float_literals::implies(f, assumption, predicate) {
                self.counters.lock().builtin_decided += 1;
                return if valid {
                    Answer::yes()
                } else {
                    Answer::no(None)
                };
            }
            if self.simplifiers.len() >= MAX_CACHED_SIMPLIFIERS {
                self.simplifiers.clear();
            }
            let tries = if self.backends.is_empty() { 40 } else { 8 };
            let a = builtin::decide(
                f,
                &self.simplifiers,
                &self.recent_witnesses,
                assumption,
                predicate,
                tries,
            );
            if a.validity != Validity::Maybe {
                self.counters.lock().builtin_decided += 1;
                return a;
            }
            if let Some(expanded) = self.decide_expanded(assumption, predicate, tries) {
                self.counters.lock().builtin_decided += 1;
                return expanded;
            }
            if self.backends.is_empty() {
                return a;
            }
        }
        if self.backends.is_empty() {
            return Answer::maybe("no prover back end");
        }
        let query = match translate::negated_validity_query(f, assumption, predicate) {
            Ok(q) => q,
            Err(e) => return Answer::maybe(format!("not translatable to SMT-LIB: {}", e.0)),
        };
        self.ask_solvers(&query, effort)
            .unwrap_or_else(|r| Answer::maybe(r.join("; ")))
    }

    /// Asks the back ends in order until one decides; a nonlinear query goes
    /// to the nonlinear helper first, with [`BRANCH_LIMIT`] (it decides or gives
    /// up quickly where yices and z3 often run out their limits). Each back end
    /// gets its own limit, or [`BRANCH_LIMIT`] for a branch question.
    fn ask_solvers(&self, query: &SmtQuery, effort: Effort) -> Result<Answer, Vec<String>> {
        let mut reasons = Vec::new();
        let helper = self.nonlinear_helper.iter().filter(|_| query.nonlinear);
        for (backend, role) in helper
            .map(|h| (h, Role::Helper))
            .chain(self.backends.iter().map(|b| (b, Role::Main)))
        {
            let mut solver = backend.lock();
            let limit = match (role, effort) {
                (Role::Main, Effort::Claim) => solver.timeout(),
                (Role::Helper, _) | (_, Effort::Branch) => BRANCH_LIMIT,
            };
            match solver.check_within(query, limit) {
                SatOutcome::Unsat => return Ok(Answer::yes()),
                SatOutcome::Sat(model) => return Ok(Answer::no(Some(model))),
                SatOutcome::Unknown(r) => reasons.push(r),
            }
        }
        Err(reasons)
    }

    /// Whether `pc` is unsatisfiable, decided without a solver when it is a
    /// conjunction of floating comparisons (`float_literals`). Not cached
    /// under `(pc, false)`: a caller asking for a model of `pc` gets the
    /// solver's.
    fn float_literals_unsat(&self, pc: Expr) -> Option<bool> {
        if !self.builtin {
            return None;
        }
        let unsat = float_literals::unsatisfiable(&self.f, pc)?;
        let mut c = self.counters.lock();
        c.queries += 1;
        c.builtin_calls += 1;
        c.builtin_decided += 1;
        Some(unsat)
    }

    fn stats(&self) -> ProverStats {
        let c = self.counters.lock();
        ProverStats {
            queries: c.queries,
            cache_hits: c.cache_hits,
            builtin_calls: c.builtin_calls,
            builtin_decided: c.builtin_decided,
            smt: self
                .backends
                .iter()
                .chain(&self.nonlinear_helper)
                .map(|b| b.lock().stats())
                .collect(),
            time: c.time,
        }
    }

    fn name(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.builtin {
            parts.push("builtin".into());
        }
        parts.extend(
            self.backends
                .iter()
                .map(|b| b.lock().kind().name().to_string()),
        );
        if let Some(h) = &self.nonlinear_helper {
            parts.push(format!("{} (nonlinear)", h.lock().kind().name()));
        }
        parts.join("+")
    }
}

/// The built-in prover: simplification, linear arithmetic (Gaussian and
/// Fourier-Motzkin elimination with integer tightening) and a small search for
/// concrete counterexamples. Needs no external program.
pub struct BuiltinProver {
    engine: Engine,
}

impl BuiltinProver {
    /// A built-in prover for expressions of `factory`.
    pub fn new(factory: Arc<ExprFactory>) -> BuiltinProver {
        BuiltinProver {
            engine: Engine::new(factory, Vec::new()),
        }
    }
}

/// `Prover` for a type whose field `engine` answers.
macro_rules! prover_through_engine {
    ($prover:ty) => {
        impl Prover for $prover {
            fn valid_with_model(&self, assumption: Expr, predicate: Expr) -> Answer {
                self.engine.answer(assumption, predicate, Effort::Claim)
            }

            fn is_unsat(&self, pc: Expr) -> bool {
                self.is_unsat_with_effort(pc, Effort::Claim)
            }

            fn valid_with_effort(
                &self,
                assumption: Expr,
                predicate: Expr,
                effort: Effort,
            ) -> Validity {
                self.engine.answer(assumption, predicate, effort).validity
            }

            fn is_unsat_with_effort(&self, pc: Expr, effort: Effort) -> bool {
                if let Some(unsat) = self.engine.float_literals_unsat(pc) {
                    return unsat;
                }
                let ff = self.engine.f.ff();
                self.engine.answer(pc, ff, effort).validity == Validity::Yes
            }

            fn stats(&self) -> ProverStats {
                self.engine.stats()
            }

            fn name(&self) -> String {
                self.engine.name()
            }
        }
    };
}

prover_through_engine!(BuiltinProver);

/// The hybrid prover: the built-in prover first (unless disabled), then each SMT
/// back end in turn until one decides. `Maybe` is never turned into `Yes`: only a
/// proof by the built-in prover or an `unsat` from a solver gives `Yes`.
pub struct HybridProver {
    engine: Engine,
}

impl HybridProver {
    /// Built-in prover first, then `backends` in order.
    pub fn new(factory: Arc<ExprFactory>, backends: Vec<SmtSolver>) -> HybridProver {
        HybridProver::with_builtin(factory, backends, true)
    }

    /// Like [`HybridProver::new`]; `builtin_first: false` sends every query straight
    /// to the solvers (for measurements and cross-checks).
    pub fn with_builtin(
        factory: Arc<ExprFactory>,
        backends: Vec<SmtSolver>,
        builtin_first: bool,
    ) -> HybridProver {
        HybridProver {
            engine: Engine {
                builtin: builtin_first,
                ..Engine::new(factory, backends)
            },
        }
    }

    /// Like [`HybridProver::with_builtin`], with `helper` asked (with
    /// [`BRANCH_LIMIT`]) about nonlinear queries before the `backends`.
    pub fn with_nonlinear_helper(
        factory: Arc<ExprFactory>,
        backends: Vec<SmtSolver>,
        helper: SmtSolver,
        builtin_first: bool,
    ) -> HybridProver {
        HybridProver {
            engine: Engine {
                builtin: builtin_first,
                nonlinear_helper: Some(Mutex::new(helper)),
                ..Engine::new(factory, backends)
            },
        }
    }

    /// The SMT-LIB script of the satisfiability query for `formula` (declarations,
    /// assertion, `check-sat`): what a solver would be sent, for debugging.
    pub fn smt_script(&self, formula: Expr) -> Result<String, String> {
        translate::script(&self.engine.f, formula).map_err(|e| e.0)
    }
}

prover_through_engine!(HybridProver);
