//! Benchmarks: building a simplifier (Gaussian elimination) and simplifying.

use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tass_simplify::api::Simplifier;
use tass_symbolic::api::{Expr, ExprFactory, Type};

/// An n x n integer system with a unique solution (diagonally dominant).
fn system(f: &ExprFactory, n: usize) -> (Expr, Vec<Expr>) {
    let xs: Vec<Expr> = (0..n)
        .map(|i| f.symbol(&format!("Y{i}"), Type::Int))
        .collect();
    let sol: Vec<i64> = (0..n as i64).map(|i| (i * 7) % 11 - 5).collect();
    let mut seed: u64 = 12345;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % 7) as i64 - 3
    };
    let mut eqs = Vec::new();
    for i in 0..n {
        let coefs: Vec<i64> = (0..n)
            .map(|j| if i == j { 4 * n as i64 } else { next() })
            .collect();
        let rhs: i64 = coefs.iter().zip(&sol).map(|(a, b)| a * b).sum();
        let lhs = f.add_all(
            &Type::Int,
            coefs.iter().zip(&xs).map(|(&a, &x)| f.mul(f.int(a), x)),
        );
        eqs.push(f.eq(lhs, f.int(rhs)));
    }
    (f.and_all(eqs), xs)
}

fn linear_system(c: &mut Criterion) {
    let f = Arc::new(ExprFactory::new());
    let (pc, xs) = system(&f, 50);
    let mut g = c.benchmark_group("simplifier");
    g.sample_size(10);
    g.bench_function("50x50 linear system: build", |b| {
        b.iter(|| Simplifier::new(f.clone(), black_box(pc)))
    });
    let s = Simplifier::new(f.clone(), pc);
    let target = f.add_all(&Type::Int, xs.iter().map(|&x| f.mul(x, x)));
    g.bench_function(
        "50x50 linear system: simplify sum of squares (uncached)",
        |b| {
            b.iter(|| {
                let s = Simplifier::new(f.clone(), black_box(pc));
                s.simplify(black_box(target))
            })
        },
    );
    g.bench_function("cached simplify", |b| {
        b.iter(|| s.simplify(black_box(target)))
    });
    g.finish();
}

fn paper_example(c: &mut Criterion) {
    let f = Arc::new(ExprFactory::new());
    let x: Vec<Expr> = (0..3)
        .map(|i| f.symbol(&format!("X{i}"), Type::Int))
        .collect();
    let sum = f.add_all(&Type::Int, x.iter().copied());
    let lin = f.add_all(&Type::Int, [x[0], f.mul(f.int(-2), x[1]), x[2]]);
    let pc = f.and_all([
        f.le(sum, f.int(6)),
        f.ge(sum, f.int(6)),
        f.eq(lin, f.int(18)),
    ]);
    let a = f.add_all(&Type::Int, x.iter().map(|&v| f.mul(v, v)));
    c.bench_function("simplifier/paper example (build + simplify a)", |b| {
        b.iter(|| {
            let s = Simplifier::new(f.clone(), black_box(pc));
            s.simplify(black_box(a))
        })
    });
}

criterion_group!(benches, linear_system, paper_example);
criterion_main!(benches);
