use std::sync::Arc;
use std::time::Instant;
use tass_simplify::api::Simplifier;
use tass_symbolic::api::{Expr, ExprFactory, Type};
fn main() {
    let f = Arc::new(ExprFactory::new());
    let n = 50;
    let t = Instant::now();
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
    println!("build eqs {:?}", t.elapsed());
    let t = Instant::now();
    let pc = f.and_all(eqs);
    println!("and_all {:?}", t.elapsed());
    let t = Instant::now();
    let s = Simplifier::new(f.clone(), pc);
    println!("simplifier {:?} {}", t.elapsed(), s.is_contradictory());
}
