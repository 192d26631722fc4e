//! Prover queries per second: built-in vs z3 vs yices (vs cvc5), cached vs not.
//!
//! Each uncached iteration asks a question never asked before (a fresh constant in
//! it), so neither the prover's cache nor the solver's query cache can answer it.
//! Run: `cargo bench -p tass-prove --bench prove`.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use tass_prove::api::{BuiltinProver, HybridProver, Prover, SmtSolver, SolverKind, Validity};
use tass_symbolic::api::{Expr, ExprFactory, Type};

/// `x > k && y == x + 1 |= y >= k + 2` (valid; linear; the built-in prover decides it).
fn linear_query(f: &ExprFactory, k: i64) -> (Expr, Expr) {
    let x = f.symbol("x", Type::Int);
    let y = f.symbol("y", Type::Int);
    let a = f.and(f.gt(x, f.int(k)), f.eq(y, f.add(x, f.int(1))));
    (a, f.ge(y, f.int(k + 2)))
}

/// `x*x + y*y >= 2*x*y` over fresh reals `x`, `y` (valid; nonlinear: the built-in
/// prover cannot decide it, the solver must).
fn nonlinear_query(f: &ExprFactory, k: i64) -> (Expr, Expr) {
    let x = f.symbol(&format!("x{k}"), Type::Real);
    let y = f.symbol(&format!("y{k}"), Type::Real);
    let lhs = f.add(f.mul(x, x), f.mul(y, y));
    let rhs = f.mul(f.real_ratio(2, 1), f.mul(x, y));
    (f.tt(), f.ge(lhs, rhs))
}

fn bench(c: &mut Criterion) {
    let f = Arc::new(ExprFactory::new());
    let mut group = c.benchmark_group("prove");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));

    let counter = AtomicI64::new(0);
    let builtin = BuiltinProver::new(f.clone());
    group.bench_function("builtin/uncached", |b| {
        b.iter(|| {
            let (a, p) = linear_query(&f, counter.fetch_add(1, Ordering::Relaxed));
            assert_eq!(builtin.valid(a, p), Validity::Yes);
        })
    });
    let (a, p) = linear_query(&f, -1);
    group.bench_function("builtin/cached", |b| {
        b.iter(|| assert_eq!(builtin.valid(a, p), Validity::Yes))
    });

    for kind in [SolverKind::Z3, SolverKind::Yices, SolverKind::Cvc5] {
        let Ok(solver) = SmtSolver::new(kind, None, Duration::from_secs(10)) else {
            eprintln!("{kind} not found; skipped");
            continue;
        };
        // SMT only: the built-in prover is not asked first.
        let smt = HybridProver::with_builtin(f.clone(), vec![solver], false);
        group.bench_function(format!("{kind}/uncached"), |b| {
            b.iter(|| {
                let (a, p) = linear_query(&f, 1_000_000 + counter.fetch_add(1, Ordering::Relaxed));
                assert_eq!(smt.valid(a, p), Validity::Yes);
            })
        });
        group.bench_function(format!("{kind}/cached"), |b| {
            b.iter(|| assert_eq!(smt.valid(a, p), Validity::Yes))
        });
        // The default arrangement on a question the built-in prover cannot decide:
        // the built-in attempt is pure overhead before the solver call.
        // A 2 s limit: cvc5 gives up on this one (`unknown`) only at its limit.
        let Ok(solver) = SmtSolver::new(kind, None, Duration::from_secs(2)) else {
            continue;
        };
        let hybrid = HybridProver::new(f.clone(), vec![solver]);
        group.bench_function(format!("hybrid-{kind}/nl"), |b| {
            b.iter(|| {
                let k = 1 + counter.fetch_add(1, Ordering::Relaxed) % 1_000_000;
                let (a, p) = nonlinear_query(&f, k);
                // cvc5 may answer `unknown` here; nobody may answer `No`.
                assert_ne!(hybrid.valid(a, p), Validity::No);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
