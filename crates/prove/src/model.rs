//! Models: concrete values for symbolic constants, read from solver output.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::sexp::Sexp;

/// A concrete value of a symbolic constant in a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelValue {
    /// A boolean.
    Bool(bool),
    /// A mathematical integer.
    Int(BigInt),
    /// A rational number (a real constant's value; solvers give exact rationals for
    /// linear problems).
    Real(BigRational),
    /// A value the solver printed in a form we do not interpret (an algebraic number,
    /// an array or function value); kept as the solver's text.
    Other(String),
}

impl fmt::Display for ModelValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelValue::Bool(b) => write!(f, "{b}"),
            ModelValue::Int(i) => write!(f, "{i}"),
            ModelValue::Real(r) => write!(f, "{r}"),
            ModelValue::Other(s) => f.write_str(s),
        }
    }
}

/// An assignment of concrete values to (some of) the symbolic constants of a query,
/// keyed by the constants' names. Used as the witness input of a counterexample.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    values: BTreeMap<String, ModelValue>,
}

impl Model {
    /// An empty model.
    pub fn new() -> Self {
        Model::default()
    }

    /// Sets the value of `name`.
    pub fn insert(&mut self, name: impl Into<String>, value: ModelValue) {
        self.values.insert(name.into(), value);
    }

    /// The value of `name`, if the model has one.
    pub fn get(&self, name: &str) -> Option<&ModelValue> {
        self.values.get(name)
    }

    /// All (name, value) pairs, ordered by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ModelValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Number of constants with a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True if no constant has a value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{k} = {v}")?;
        }
        Ok(())
    }
}

/// The sort a model term is read back as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueSort {
    /// `Bool`.
    Bool,
    /// `Int`.
    Int,
    /// `Real`.
    Real,
}

/// Interprets a value printed by a solver: `true`, `42`, `(- 3)`, `1.5`, `(/ 1 2)`,
/// `(/ (- 1.0) 2.0)`, `(- (/ 1 2))`. Anything else becomes [`ModelValue::Other`].
pub fn parse_value(sexp: &Sexp, sort: ValueSort) -> ModelValue {
    match sort {
        ValueSort::Bool => match sexp.atom() {
            Some("true") => ModelValue::Bool(true),
            Some("false") => ModelValue::Bool(false),
            _ => ModelValue::Other(sexp.to_string()),
        },
        ValueSort::Int => match number(sexp) {
            Some(q) if q.is_integer() => ModelValue::Int(q.to_integer()),
            _ => ModelValue::Other(sexp.to_string()),
        },
        ValueSort::Real => match number(sexp) {
            Some(q) => ModelValue::Real(q),
            None => ModelValue::Other(sexp.to_string()),
        },
    }
}

fn number(sexp: &Sexp) -> Option<BigRational> {
    match sexp {
        Sexp::Atom(a) => decimal(a),
        Sexp::List(items) => match items.as_slice() {
            [Sexp::Atom(op), x] if op == "-" => number(x).map(|v| -v),
            [Sexp::Atom(op), x, y] if op == "/" => {
                let d = number(y)?;
                (!d.is_zero()).then(|| number(x).map(|n| n / d))?
            }
            // yices and z3 print `(/ 1 2)`; some versions print `(* -1 x)` never, but
            // `(to_real 3)` occurs for reals built from integers.
            [Sexp::Atom(op), x] if op == "to_real" => number(x),
            _ => None,
        },
        Sexp::Str(_) => None,
    }
}

/// `123`, `-4` (not SMT-LIB, but harmless), `1.25`, `3.0`.
fn decimal(text: &str) -> Option<BigRational> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int_part, frac_part) = match digits.split_once('.') {
        Some((i, f)) => (i, f),
        None => (digits, ""),
    };
    if int_part.is_empty() || !int_part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac_part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let numer: BigInt = format!("{int_part}{frac_part}").parse().ok()?;
    let mut denom = BigInt::one();
    for _ in 0..frac_part.len() {
        denom *= 10;
    }
    let v = BigRational::new(numer, denom);
    Some(if neg { -v.abs() } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sexp::parse_all;

    fn val(text: &str, sort: ValueSort) -> ModelValue {
        let s = parse_all(text).expect("parses");
        parse_value(&s[0], sort)
    }

    fn q(n: i64, d: i64) -> ModelValue {
        ModelValue::Real(BigRational::new(n.into(), d.into()))
    }

    #[test]
    fn integers() {
        assert_eq!(val("42", ValueSort::Int), ModelValue::Int(42.into()));
        assert_eq!(val("(- 3)", ValueSort::Int), ModelValue::Int((-3).into()));
        assert_eq!(
            val("123456789012345678901234567890", ValueSort::Int).to_string(),
            "123456789012345678901234567890"
        );
        assert!(matches!(
            val("(/ 1 2)", ValueSort::Int),
            ModelValue::Other(_)
        ));
    }

    #[test]
    fn rationals_in_every_solver_dialect() {
        assert_eq!(val("(/ 1 2)", ValueSort::Real), q(1, 2));
        assert_eq!(val("(/ 1.0 2.0)", ValueSort::Real), q(1, 2));
        assert_eq!(val("(- (/ 1 2))", ValueSort::Real), q(-1, 2));
        assert_eq!(val("(/ (- 7) 2)", ValueSort::Real), q(-7, 2));
        assert_eq!(val("1.25", ValueSort::Real), q(5, 4));
        assert_eq!(val("(- 0.5)", ValueSort::Real), q(-1, 2));
        assert_eq!(val("3", ValueSort::Real), q(3, 1));
        assert_eq!(
            val("(/ 1 0)", ValueSort::Real),
            ModelValue::Other("(/ 1 0)".into())
        );
        assert!(matches!(
            val("(root-obj (+ (^ x 2) (- 2)) 1)", ValueSort::Real),
            ModelValue::Other(_)
        ));
    }

    #[test]
    fn booleans_and_display() {
        assert_eq!(val("true", ValueSort::Bool), ModelValue::Bool(true));
        let mut m = Model::new();
        m.insert("y", q(1, 2));
        m.insert("x", ModelValue::Int((-1).into()));
        assert_eq!(m.to_string(), "x = -1, y = 1/2");
        assert_eq!(m.len(), 2);
    }
}
