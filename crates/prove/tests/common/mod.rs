//! Helpers shared by the integration tests: finding solvers, writing fake solvers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use tass_prove::api::{
    Answer, BuiltinProver, HybridProver, ModelValue, Prover, SmtSolver, SolverKind, Validity,
};
use tass_symbolic::api::{Assignment, BigRational, Expr, ExprFactory, Type, Value};

/// The time limit the tests give each query.
pub const LIMIT: Duration = Duration::from_secs(10);

/// True when `TASS_REQUIRE_SMT=1`: a missing z3 is then a failure, not a skip.
pub fn smt_required() -> bool {
    std::env::var("TASS_REQUIRE_SMT").is_ok_and(|v| v == "1")
}

/// A back end for `kind` if its program is installed. Otherwise prints why the test
/// is skipped and returns `None` (or fails, for z3 under `TASS_REQUIRE_SMT=1`).
pub fn solver(kind: SolverKind, test: &str) -> Option<SmtSolver> {
    match SmtSolver::new(kind, None, LIMIT) {
        Ok(s) => Some(s),
        Err(e) => {
            if kind == SolverKind::Z3 && smt_required() {
                panic!("TASS_REQUIRE_SMT=1 but z3 is unavailable: {e}");
            }
            eprintln!("skipped {test} for {kind}: {e}");
            None
        }
    }
}

/// Every installed solver (z3 required under `TASS_REQUIRE_SMT=1`).
pub fn all_solvers(test: &str) -> Vec<SmtSolver> {
    [SolverKind::Z3, SolverKind::Cvc5, SolverKind::Yices]
        .into_iter()
        .filter_map(|k| solver(k, test))
        .collect()
}

/// Writes an executable shell script `name` with `body` into a fresh temporary
/// directory and returns its path.
pub fn fake_solver(name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("tass-prove-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write fake solver");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// The constants `y0`, `y1`, ... (`count` of them, of type `ty`) that the
/// random queries of the soundness properties range over.
pub fn constants(f: &ExprFactory, count: usize, ty: &Type) -> Vec<Expr> {
    (0..count)
        .map(|k| f.symbol(&format!("y{k}"), ty.clone()))
        .collect()
}

/// `lhs rel rhs` with the relation a random `op` picks: 0 `>`, 1 `>=`,
/// 2 `==`, 3 `!=`, anything else `<`.
pub fn relation(f: &ExprFactory, op: u8, lhs: Expr, rhs: Expr) -> Expr {
    match op {
        0 => f.gt(lhs, rhs),
        1 => f.ge(lhs, rhs),
        2 => f.eq(lhs, rhs),
        3 => f.ne(lhs, rhs),
        _ => f.lt(lhs, rhs),
    }
}

/// How a random query joins its claims.
#[derive(Clone, Copy, Debug)]
pub enum Junction {
    /// Every claim (`&&`).
    All,
    /// Some claim (`||`).
    Any,
}

impl Junction {
    /// The claims joined.
    pub fn join(self, f: &ExprFactory, claims: Vec<Expr>) -> Expr {
        match self {
            Junction::All => f.and_all(claims),
            Junction::Any => f.or_all(claims),
        }
    }
}

/// Either junction, equally often.
pub fn junction() -> impl Strategy<Value = Junction> {
    prop_oneof![Just(Junction::All), Just(Junction::Any)]
}

/// One random query of a soundness property: does `assumption` imply
/// `claim`, over the constants `vars` (from [`constants`]).
pub struct RandomQuery<'a> {
    pub f: &'a Arc<ExprFactory>,
    pub vars: &'a [Expr],
    pub ty: &'a Type,
    pub assumption: Expr,
    pub claim: Expr,
}

/// The property the proptest files share: the built-in prover and z3 (behind
/// the hybrid prover) never answer yes and no to the same query, and every
/// model the built-in prover gives is a real counterexample (the assumption
/// evaluates to true and the claim to false under it, exactly). Returns the
/// built-in answer for checks of the caller's own; `None` when z3 is not
/// installed (the case is skipped, see [`solver`]).
pub fn agrees_with_z3(test: &str, q: &RandomQuery) -> Result<Option<Answer>, TestCaseError> {
    let Some(z3) = solver(SolverKind::Z3, test) else {
        return Ok(None);
    };
    let f = q.f;
    let (a, p) = (q.assumption, q.claim);
    let builtin = BuiltinProver::new(f.clone());
    let smt = HybridProver::with_builtin(f.clone(), vec![z3], false);
    let b = builtin.valid_with_model(a, p);
    let s = smt.valid(a, p);
    let conflict = matches!(
        (b.validity, s),
        (Validity::Yes, Validity::No) | (Validity::No, Validity::Yes)
    );
    prop_assert!(
        !conflict,
        "builtin {:?} vs z3 {:?} on {} |= {}",
        b.validity,
        s,
        f.pretty(a),
        f.pretty(p)
    );
    if let Some(m) = &b.model {
        let mut asg = Assignment::new();
        for (k, &v) in q.vars.iter().enumerate() {
            let value = match m.get(&format!("y{k}")) {
                Some(ModelValue::Int(i)) => Value::Int(i.clone()),
                Some(ModelValue::Real(r)) => Value::Real(r.clone()),
                // A constant absent from the model does not occur in the query.
                _ => Value::Int(0.into()),
            };
            let value = match (q.ty, value) {
                (Type::Real, Value::Int(i)) => Value::Real(BigRational::from_integer(i)),
                (_, v) => v,
            };
            asg.set(v, value);
        }
        prop_assert_eq!(f.eval_bool(a, &asg), Ok(true));
        prop_assert_eq!(f.eval_bool(p, &asg), Ok(false));
    }
    Ok(Some(b))
}
