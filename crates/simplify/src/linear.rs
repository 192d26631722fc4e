//! Linear forms over monomials and exact Gaussian elimination.

use std::cmp::Ordering;

use hashbrown::HashMap;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use tass_symbolic::api::{Expr, ExprFactory, Type};

/// `sum(coef * mono) + constant`, monomials distinct and coefficients non-zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LinForm {
    pub ty: Type,
    pub terms: Vec<(Expr, BigRational)>,
    pub constant: BigRational,
}

impl LinForm {
    /// The linear form of a numeric polynomial expression.
    pub fn of(f: &ExprFactory, e: Expr) -> LinForm {
        let ty = f.type_of(e);
        let mut terms = Vec::new();
        let mut constant = BigRational::zero();
        for (c, m) in f.poly_terms(e) {
            if f.as_concrete_rational(m).is_some() {
                constant += c;
            } else {
                terms.push((m, c));
            }
        }
        LinForm {
            ty,
            terms,
            constant,
        }
    }

    pub fn to_expr(&self, f: &ExprFactory) -> Expr {
        let mut v: Vec<(BigRational, Expr)> =
            self.terms.iter().map(|(m, c)| (c.clone(), *m)).collect();
        v.push((self.constant.clone(), f.one(&self.ty)));
        f.linear_combination(&self.ty, &v)
    }

    pub fn coef(&self, m: Expr) -> Option<&BigRational> {
        self.terms.iter().find(|(x, _)| *x == m).map(|(_, c)| c)
    }

    /// `self + k * other`.
    pub fn add_scaled(&mut self, other: &LinForm, k: &BigRational) {
        for (m, c) in &other.terms {
            let add = c * k;
            match self.terms.iter_mut().position(|(x, _)| x == m) {
                Some(i) => {
                    self.terms[i].1 += add;
                    if self.terms[i].1.is_zero() {
                        self.terms.remove(i);
                    }
                }
                None => self.terms.push((*m, add)),
            }
        }
        self.constant += &other.constant * k;
    }

    /// Multiplies by the lcm of the denominators and divides by the gcd of the
    /// numerators so that all coefficients are coprime integers; the first
    /// (in `order`) coefficient positive.
    pub fn integer_normalized(&self) -> LinForm {
        let mut l = BigInt::one();
        for (_, c) in &self.terms {
            l = l.lcm(c.denom());
        }
        l = l.lcm(self.constant.denom());
        let lr = BigRational::from_integer(l);
        let mut g = BigInt::zero();
        for (_, c) in &self.terms {
            g = g.gcd(&(c * &lr).to_integer());
        }
        g = g.gcd(&(&self.constant * &lr).to_integer());
        if g.is_zero() {
            g = BigInt::one();
        }
        let k = lr / BigRational::from_integer(g);
        LinForm {
            ty: self.ty.clone(),
            terms: self.terms.iter().map(|(m, c)| (*m, c * &k)).collect(),
            constant: &self.constant * &k,
        }
    }
}

/// Degree of a monomial.
pub(crate) fn degree(f: &ExprFactory, m: Expr) -> u32 {
    f.monomial_factors(m).iter().map(|x| x.1).sum()
}

/// Column order: higher degree first, then the factory's structural order.
pub(crate) fn mono_order(f: &ExprFactory, a: Expr, b: Expr) -> Ordering {
    degree(f, b)
        .cmp(&degree(f, a))
        .then_with(|| f.compare(a, b))
}

/// The result of eliminating a system of equations `form == 0`.
pub(crate) struct Solved {
    /// Rows in reduced row echelon form: pivot monomial and the row (pivot
    /// coefficient 1). Rows with a single monomial are solved values.
    pub rows: Vec<(Expr, LinForm)>,
    /// True if the system has no solution.
    pub inconsistent: bool,
}

/// Gaussian elimination with exact rationals over the monomials of `eqs` (all of
/// one type).
pub(crate) fn eliminate(f: &ExprFactory, eqs: &[LinForm]) -> Solved {
    let mut cols: Vec<Expr> = Vec::new();
    let mut col_index: HashMap<Expr, usize> = HashMap::new();
    for e in eqs {
        for (m, _) in &e.terms {
            if !col_index.contains_key(m) {
                col_index.insert(*m, 0);
                cols.push(*m);
            }
        }
    }
    cols.sort_by(|&a, &b| mono_order(f, a, b));
    for (i, &m) in cols.iter().enumerate() {
        col_index.insert(m, i);
    }
    let n = cols.len();
    // Dense integer rows (each equation scaled by the lcm of its denominators):
    // n coefficients then the constant.
    let mut irows: Vec<Vec<BigInt>> = eqs
        .iter()
        .map(|e| {
            let e = e.integer_normalized();
            let mut r = vec![BigInt::zero(); n + 1];
            for (m, c) in &e.terms {
                r[col_index[m]] = c.to_integer();
            }
            r[n] = e.constant.to_integer();
            r
        })
        .collect();
    // Forward phase: fraction-free (Bareiss) elimination to echelon form; the
    // entries stay minors of the matrix, so they do not blow up.
    let mut pivots: Vec<(usize, usize)> = Vec::new(); // (row, col)
    let mut r = 0;
    let mut prev = BigInt::one();
    for c in 0..n {
        if r >= irows.len() {
            break;
        }
        let Some(p) = (r..irows.len()).find(|&i| !irows[i][c].is_zero()) else {
            continue;
        };
        irows.swap(r, p);
        let (top, rest) = irows.split_at_mut(r + 1);
        let prow = &top[r];
        let pv = prow[c].clone();
        for row in rest.iter_mut() {
            let k = std::mem::take(&mut row[c]);
            for j in c + 1..=n {
                let v = &pv * &row[j] - &k * &prow[j];
                row[j] = if prev.is_one() {
                    v
                } else {
                    debug_assert!((&v % &prev).is_zero(), "Bareiss division not exact");
                    v / &prev
                };
            }
        }
        prev = pv;
        pivots.push((r, c));
        r += 1;
    }
    // Back phase over the rationals, bottom-up: each reduced row has non-zeros
    // only at its pivot, at non-pivot columns and at the constant.
    let mut rows: Vec<Vec<BigRational>> = irows
        .into_iter()
        .map(|row| row.into_iter().map(BigRational::from_integer).collect())
        .collect();
    for &(ri, c) in pivots.iter().rev() {
        let inv = rows[ri][c].recip();
        for x in rows[ri].iter_mut() {
            if !x.is_zero() {
                *x *= &inv;
            }
        }
        let nz: Vec<usize> = (c..=n).filter(|&j| !rows[ri][j].is_zero()).collect();
        let (above, below) = rows.split_at_mut(ri);
        let prow = &below[0];
        for row in above.iter_mut() {
            if row[c].is_zero() {
                continue;
            }
            let k = row[c].clone();
            for &j in &nz {
                row[j] -= &k * &prow[j];
            }
        }
    }
    let inconsistent = rows[r..].iter().any(|row| !row[n].is_zero());
    let ty = eqs.first().map(|e| e.ty.clone()).unwrap_or(Type::Int);
    let mut out = Vec::new();
    let mut inconsistent = inconsistent;
    for &(ri, c) in &pivots {
        let row = &rows[ri];
        let form = LinForm {
            ty: ty.clone(),
            terms: (0..n)
                .filter(|&j| !row[j].is_zero())
                .map(|j| (cols[j], row[j].clone()))
                .collect(),
            constant: row[n].clone(),
        };
        if ty == Type::Int {
            if form.terms.len() == 1 && !form.constant.is_integer() {
                inconsistent = true;
            }
            if form.terms.len() > 1 {
                // gcd test: integer coefficients must divide the constant.
                let nf = form.integer_normalized();
                let mut g = BigInt::zero();
                for (_, c) in &nf.terms {
                    g = g.gcd(&c.to_integer());
                }
                if !g.is_zero() && !nf.constant.to_integer().is_multiple_of(&g) {
                    inconsistent = true;
                }
            }
        }
        out.push((cols[c], form));
    }
    Solved {
        rows: out,
        inconsistent,
    }
}
