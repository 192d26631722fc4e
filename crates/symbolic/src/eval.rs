//! Concrete evaluation of expressions under an assignment.

use hashbrown::HashMap;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::compound::BitOp;
use crate::factory::ExprFactory;
use crate::node::Op;
use crate::rational;
use crate::types::{Assignment, EvalError, Expr, RelOp, Type, Value};

fn num(v: &Value) -> Result<BigRational, EvalError> {
    match v {
        Value::Int(i) => Ok(BigRational::from_integer(i.clone())),
        Value::Real(r) => Ok(r.clone()),
        Value::Char(c) => Ok(BigRational::from_integer((*c).into())),
        Value::Bool(b) => Ok(BigRational::from_integer(BigInt::from(*b as u8))),
        v => Err(EvalError::TypeMismatch(format!(
            "expected a number, got {v:?}"
        ))),
    }
}

fn int(v: &Value) -> Result<BigInt, EvalError> {
    match v {
        Value::Int(i) => Ok(i.clone()),
        Value::Char(c) => Ok((*c).into()),
        Value::Bool(b) => Ok(BigInt::from(*b as u8)),
        v => Err(EvalError::TypeMismatch(format!(
            "expected an integer, got {v:?}"
        ))),
    }
}

fn boolean(v: &Value) -> Result<bool, EvalError> {
    match v {
        Value::Bool(b) => Ok(*b),
        v => Err(EvalError::TypeMismatch(format!(
            "expected a boolean, got {v:?}"
        ))),
    }
}

fn number_value(r: BigRational, ty: &Type) -> Value {
    match ty {
        Type::Real => Value::Real(r),
        _ => Value::Int(r.to_integer()),
    }
}

impl ExprFactory {
    /// The concrete value of `e` when every symbolic constant `X` has the value
    /// `assignment.get(X)` (function symbols: `assignment`'s interpretations; the
    /// reserved bitwise functions are built in).
    ///
    /// C integer division by zero follows [`Self::int_div`] (`x / 0 == 0`,
    /// `x % 0 == x`); real division by zero is an error. Quantifiers are evaluated
    /// only when the body does not depend on the bound variable.
    pub fn eval(&self, e: Expr, assignment: &Assignment) -> Result<Value, EvalError> {
        let mut memo = HashMap::new();
        self.eval_rec(e, assignment, &mut memo)
    }

    fn eval_rec(
        &self,
        e: Expr,
        asg: &Assignment,
        memo: &mut HashMap<Expr, Value>,
    ) -> Result<Value, EvalError> {
        if let Some(v) = memo.get(&e) {
            return Ok(v.clone());
        }
        let node = self.node(e);
        let mut ev = |x: Expr| self.eval_rec(x, asg, memo);
        let v = match &node.op {
            Op::Bool(b) => Value::Bool(*b),
            Op::Int(i) => Value::Int(i.clone()),
            Op::Real(r) => Value::Real(r.clone()),
            Op::Char(c) => Value::Char(*c),
            Op::Symbol(name) => match asg.values.get(&e) {
                Some(v) => v.clone(),
                None => return Err(EvalError::Unassigned(name.to_string())),
            },
            Op::Poly(p) => {
                let mut acc = BigRational::zero();
                for t in &p.terms {
                    let mut prod = t.coef.clone();
                    for &(x, k) in &t.mono {
                        let b = num(&ev(x)?)?;
                        prod = rational::mul(&prod, &rational::pow(&b, k));
                    }
                    acc = rational::add(&acc, &prod);
                }
                number_value(acc, &node.ty)
            }
            Op::Div(a, b) => {
                let x = num(&ev(*a)?)?;
                let y = num(&ev(*b)?)?;
                if y.is_zero() {
                    return Err(EvalError::DivisionByZero);
                }
                Value::Real(rational::div(&x, &y))
            }
            Op::IntDiv(a, b) => {
                let x = int(&ev(*a)?)?;
                let y = int(&ev(*b)?)?;
                Value::Int(if y.is_zero() { BigInt::zero() } else { x / y })
            }
            Op::IntMod(a, b) => {
                let x = int(&ev(*a)?)?;
                let y = int(&ev(*b)?)?;
                Value::Int(if y.is_zero() { x } else { x % y })
            }
            Op::ToReal(a) => Value::Real(num(&ev(*a)?)?),
            Op::ToInt(a) => Value::Int(num(&ev(*a)?)?.trunc().to_integer()),
            Op::Cast(a) => cast_value(&node.ty, ev(*a)?)?,
            Op::Rel(op, f) => {
                let x = num(&ev(*f)?)?;
                Value::Bool(match op {
                    RelOp::Gt => x.is_positive(),
                    RelOp::Ge => !x.is_negative(),
                    RelOp::Eq => x.is_zero(),
                    RelOp::Ne => !x.is_zero(),
                })
            }
            Op::Equal(a, b) => {
                let x = ev(*a)?;
                let y = ev(*b)?;
                Value::Bool(x == y)
            }
            Op::And(ks) => Value::Bool(short_circuit(ks, Junction::All, &mut ev)?),
            Op::Or(ks) => Value::Bool(short_circuit(ks, Junction::Any, &mut ev)?),
            Op::Not(a) => Value::Bool(!boolean(&ev(*a)?)?),
            Op::Ite(c, a, b) => {
                if boolean(&ev(*c)?)? {
                    ev(*a)?
                } else {
                    ev(*b)?
                }
            }
            Op::ArrayRead(a, i) => {
                let arr = ev(*a)?;
                let idx = int(&ev(*i)?)?;
                index_value(arr, &idx)?
            }
            Op::ArrayWrite(a, i, v) => {
                let arr = ev(*a)?;
                let idx = int(&ev(*i)?)?;
                let val = ev(*v)?;
                write_value(arr, &idx, val)?
            }
            Op::ConcreteArray(b, els) => {
                let mut arr = ev(*b)?;
                for (k, v) in els.iter().enumerate() {
                    if let Some(v) = v {
                        let val = ev(*v)?;
                        arr = write_value(arr, &BigInt::from(k), val)?;
                    }
                }
                arr
            }
            Op::ArrayLambda(var, body) => {
                let len = match &node.ty {
                    Type::Array(_, Some(ext)) => int(&ev(*ext)?)?,
                    _ => {
                        return Err(EvalError::Unsupported(
                            "array lambda of unknown extent".into(),
                        ))
                    }
                };
                self.lambda_value(*var, *body, &len, asg)?
            }
            Op::Tuple(ks) => {
                let mut v = Vec::with_capacity(ks.len());
                for &k in ks {
                    v.push(ev(k)?);
                }
                Value::Tuple(v)
            }
            Op::TupleRead(t, k) => match ev(*t)? {
                Value::Tuple(mut v) if (*k as usize) < v.len() => v.swap_remove(*k as usize),
                v => return Err(EvalError::TypeMismatch(format!("tuple read of {v:?}"))),
            },
            Op::Apply(g, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for &a in args {
                    vals.push(ev(a)?);
                }
                self.apply_value(*g, &vals, asg)?
            }
            Op::Quant(_, var, body) => {
                if self.occurs(*var, *body) {
                    return Err(EvalError::Unsupported(
                        "quantifier over an infinite domain".into(),
                    ));
                }
                ev(*body)?
            }
        };
        memo.insert(e, v.clone());
        Ok(v)
    }

    /// The array `(lambda int var. body)` of extent `len`, element by element.
    fn lambda_value(
        &self,
        var: Expr,
        body: Expr,
        len: &BigInt,
        asg: &Assignment,
    ) -> Result<Value, EvalError> {
        let n = len
            .to_usize()
            .filter(|n| *n <= 1 << 20)
            .ok_or_else(|| EvalError::Unsupported(format!("array of extent {len}")))?;
        let mut els = Vec::with_capacity(n);
        for k in 0..n {
            let mut a2 = asg.clone();
            a2.values.insert(var, Value::Int(k.into()));
            els.push(self.eval(body, &a2)?);
        }
        Ok(Value::Array(els))
    }

    /// `g(vals)`: a bit operation, or the function the assignment gives `g`.
    fn apply_value(&self, g: Expr, vals: &[Value], asg: &Assignment) -> Result<Value, EvalError> {
        let name = self.symbol_name(g).unwrap_or_else(|| "?".into());
        if let (Some(op), 2) = (BitOp::from_function_name(&name), vals.len()) {
            let (x, y) = (int(&vals[0])?, int(&vals[1])?);
            return match op.apply(&x, &y) {
                Some(r) => Ok(Value::Int(r)),
                None => Err(EvalError::Unsupported(format!(
                    "shift by {y} (negative or huge)"
                ))),
            };
        }
        match asg.functions.get(&g) {
            Some(fv) => fv(vals)
                .ok_or_else(|| EvalError::Unsupported(format!("function `{name}` undefined here"))),
            None => Err(EvalError::Unassigned(name.to_string())),
        }
    }

    /// Like [`Self::eval`] for a boolean expression.
    pub fn eval_bool(&self, e: Expr, assignment: &Assignment) -> Result<bool, EvalError> {
        boolean(&self.eval(e, assignment)?)
    }

    /// Like [`Self::eval`] for a numeric expression, as a rational.
    pub fn eval_number(&self, e: Expr, assignment: &Assignment) -> Result<BigRational, EvalError> {
        num(&self.eval(e, assignment)?)
    }

    /// The constant expression for a concrete value (arrays become array
    /// literals of type `ty`, which must then be an array type).
    pub fn value_expr(&self, v: &Value, ty: &Type) -> Expr {
        match v {
            Value::Bool(b) => self.bool(*b),
            Value::Int(i) => {
                let e = self.int(i.clone());
                if *ty == Type::Real {
                    self.to_real(e)
                } else {
                    e
                }
            }
            Value::Real(r) => self.real(r.clone()),
            Value::Char(c) => self.char(*c),
            Value::Tuple(vs) => {
                let ts: Vec<Type> = match ty {
                    Type::Tuple(ts) => ts.to_vec(),
                    _ => vs.iter().map(|_| Type::Int).collect(),
                };
                let els: Vec<Expr> = vs
                    .iter()
                    .zip(ts.iter())
                    .map(|(v, t)| self.value_expr(v, t))
                    .collect();
                self.tuple(&els)
            }
            Value::Array(vs) => {
                let et = ty.element().cloned().unwrap_or(Type::Int);
                let els: Vec<Expr> = vs.iter().map(|v| self.value_expr(v, &et)).collect();
                self.array_literal(ty.clone(), &els)
            }
        }
    }
}

fn index_value(arr: Value, idx: &BigInt) -> Result<Value, EvalError> {
    match arr {
        Value::Array(mut v) => {
            let len = v.len();
            match idx.to_usize().filter(|k| *k < len) {
                Some(k) => Ok(v.swap_remove(k)),
                None => Err(EvalError::IndexOutOfBounds {
                    index: idx.clone(),
                    len,
                }),
            }
        }
        v => Err(EvalError::TypeMismatch(format!("array read of {v:?}"))),
    }
}

fn write_value(arr: Value, idx: &BigInt, val: Value) -> Result<Value, EvalError> {
    match arr {
        Value::Array(mut v) => {
            let len = v.len();
            match idx.to_usize().filter(|k| *k < len) {
                Some(k) => {
                    v[k] = val;
                    Ok(Value::Array(v))
                }
                None => Err(EvalError::IndexOutOfBounds {
                    index: idx.clone(),
                    len,
                }),
            }
        }
        v => Err(EvalError::TypeMismatch(format!("array write of {v:?}"))),
    }
}

#[allow(dead_code)]
fn one() -> BigRational {
    BigRational::one()
}

/// `v` converted to `ty` (an integer, character or real).
fn cast_value(ty: &Type, v: Value) -> Result<Value, EvalError> {
    Ok(match (ty, v) {
        (Type::Int, v) => Value::Int(int(&v)?),
        (Type::Char, v) => {
            let i = int(&v)?;
            Value::Char(
                i.to_u32()
                    .ok_or_else(|| EvalError::Unsupported(format!("character code {i}")))?,
            )
        }
        (Type::Real, v) => Value::Real(num(&v)?),
        (t, v) => return Err(EvalError::Unsupported(format!("cast of {v:?} to {t:?}"))),
    })
}

/// Whether all (`&&`) or any (`||`) of a list must hold.
#[derive(Clone, Copy)]
enum Junction {
    All,
    Any,
}

/// The conjunction or disjunction of `ks`, evaluated in order until one decides
/// it (a false one for `All`, a true one for `Any`).
fn short_circuit(
    ks: &[Expr],
    junction: Junction,
    ev: &mut impl FnMut(Expr) -> Result<Value, EvalError>,
) -> Result<bool, EvalError> {
    let decisive = matches!(junction, Junction::Any);
    for &k in ks {
        if boolean(&ev(k)?)? == decisive {
            return Ok(decisive);
        }
    }
    Ok(!decisive)
}
