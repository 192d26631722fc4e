//! Loop-invariant symbolic execution (classic, one process): the two arrivals
//! at the head of a loop that carries `#pragma TASS collective invariant`.
//!
//! On entry the invariant is checked (the base case), every object the loop
//! may write (its write set, computed by `tass_model::api::prepare_loop_invariants`)
//! gets fresh symbolic values, and the invariant is assumed: the state now
//! stands for the head at *every* iteration. The loop condition is then
//! tested by the head's branch as usual. At the end of an iteration the
//! invariant is checked again (the inductive step) and the path ends: what a
//! later iteration does is what this arbitrary one did. So the search is
//! finite whatever the loop count, and what follows the loop holds for every
//! iteration count.
//!
//! Soundness needs: the write set covers every object an iteration may
//! change (the model refuses loops it cannot pin down), and the fresh values
//! over-approximate those objects' values (an object that is uninitialised on
//! entry stays so, a partly initialised array or a pointer written in the loop
//! is refused). With several processes this statement only marks the
//! arrival: `tass-state`'s `loop_sync.rs` waits for every process, checks the
//! invariant on all of them and gives all write sets fresh values at once
//! ([`havoc_write_set`]).

use tass_dynamic::api::{Pointer, Root, Value, UNDEFINED_SYMBOL};
use tass_model::api::{
    render_expr, CollectiveKind, LoopArrival, LoopInvariant, Model, Span, WriteTarget,
};
use tass_symbolic::api::{Expr, ExprFactory, ExprView, Type};

use super::{show_value, Change, StatementStep};
use crate::env::Environment;
use crate::report::{EngineError, Property};

impl StatementStep<'_, '_> {
    /// Executes the arrival `inv.arrival` at the head of an invariant loop.
    pub(super) fn loop_invariant(
        &mut self,
        env: &mut dyn Environment,
        inv: &LoopInvariant,
    ) -> Result<(), EngineError> {
        let span = self.span;
        if let Some(why) = &inv.refused {
            return Err(EngineError::unsupported(
                format!("loop invariant `{}`: {}", inv.id, why.message),
                &why.span,
            ));
        }
        if env.nprocs() > 1 || inv.communication.is_some() || inv.kind == CollectiveKind::Joint {
            // The collective form (also for one process when the loop
            // communicates: the MPI state must be checked at the head): the
            // arrival is recorded, checked and acted on by the engine once
            // every process has arrived (`tass-state`'s `loop_sync.rs`); a
            // joint invariant (`tass compare`) always takes that form
            // (`tass-state`'s `loop_joint.rs`).
            return Ok(());
        }
        let text = render_expr(self.model, &inv.condition);
        let holds = self.ev.eval_bool(&*env, &inv.condition)?;
        let id = &inv.id;
        let asked_before = self.ev.oracle().prover_questions();
        match inv.arrival {
            LoopArrival::Entry => {
                self.ev.check(
                    &*env,
                    holds,
                    Property::Invariant,
                    || format!("loop invariant `{id}` does not hold on entry to the loop: `{text}` can be false before the first iteration"),
                    &inv.span,
                );
                self.count_check(asked_before);
                self.havoc(env, inv)?;
                let assumed = self.ev.eval_bool(&*env, &inv.condition)?;
                self.ev.assumed.push(assumed);
            }
            LoopArrival::Return => {
                self.ev.check(
                    &*env,
                    holds,
                    Property::Invariant,
                    || format!("loop invariant `{id}` is not preserved: `{text}` can be false when an iteration that began where it held (and the loop condition was true) comes back to the loop head from line {}", span.start_line),
                    &inv.span,
                );
                self.count_check(asked_before);
                // The back edge is cut: this arbitrary iteration stands for all.
                let ff = self.ev.factory().ff();
                self.ev.assumed.push(ff);
            }
        }
        Ok(())
    }

    fn count_check(&mut self, asked_before: u64) {
        let oracle = self.ev.oracle();
        let asked = oracle.prover_questions() - asked_before;
        oracle.count_invariant_check(asked);
    }

    /// Gives every object in the loop's write set fresh symbolic values.
    fn havoc(&mut self, env: &mut dyn Environment, inv: &LoopInvariant) -> Result<(), EngineError> {
        let mut changes = Vec::new();
        let mut fresh = |f: &ExprFactory, ty: Type| f.fresh_symbol(LOOP_SYMBOL_PREFIX, ty);
        let havoc = Havoc {
            inv,
            span: self.span,
            fresh: &mut fresh,
        };
        let assumed = havoc_write_set(self.model, self.ev.factory(), env, havoc, &mut changes)?;
        self.ev.assumed.extend(assumed);
        for change in changes {
            self.changes.record(|| change);
        }
        Ok(())
    }
}

/// One arrival's fresh values: the loop, where (for errors), and how fresh
/// constants are made (any constant not in the state will do; the
/// collective form names them after the arrival so that equal states reached
/// by different interleavings stay equal).
pub struct Havoc<'h> {
    pub inv: &'h LoopInvariant,
    pub span: &'h Span,
    pub fresh: &'h mut dyn FnMut(&ExprFactory, Type) -> Expr,
}

/// Gives every object in `inv`'s write set, in the process `env` shows,
/// fresh symbolic values of the same shape (the arrival at the loop head
/// from which one arbitrary iteration is explored); returns what the new
/// values are known to satisfy (integer scalars lie in their type's range)
/// and appends the changes made to `changes`. Used by the one-process
/// arrival here and by the aligned collective form in `tass-state`.
pub fn havoc_write_set(
    model: &Model,
    f: &ExprFactory,
    env: &mut dyn Environment,
    havoc: Havoc,
    changes: &mut Vec<Change>,
) -> Result<Vec<Expr>, EngineError> {
    let Havoc { inv, span, fresh } = havoc;
    let mut assumed = Vec::new();
    for target in &inv.writes {
        let root = match *target {
            WriteTarget::Var(v) => env.root_of(v),
            WriteTarget::PointeeOf(p) => match env.get(env.root_of(p)) {
                Some(Value::Pointer(Pointer::To { root, .. } | Pointer::Bytes { root, .. })) => {
                    *root
                }
                // null or uninitialised: a write through it is reported
                // when it happens, and writes nothing
                Some(Value::Pointer(Pointer::Null) | Value::Undefined) | None => continue,
                Some(_) => {
                    return Err(EngineError::unsupported(
                        format!(
                        "loop invariant `{}`: a pointer of unexpected form in the loop's write set",
                        inv.id
                    ),
                        span,
                    ))
                }
            },
        };
        // inputs are read-only: a write into one is reported when it happens
        if matches!(root, Root::Shared(_)) {
            continue;
        }
        let Some(old) = env.get(root).cloned() else {
            continue;
        };
        let new = fresh_like(f, &old, fresh).map_err(|what| {
            EngineError::unsupported(
                format!(
                    "loop invariant `{}`: the loop changes an object that {what}; tass cannot give it fresh values",
                    inv.id
                ),
                span,
            )
        })?;
        // A scalar variable of an integer type holds a value of its range:
        // saying so keeps the fresh value from standing for impossible ones.
        if let (WriteTarget::Var(v), Value::Data(x)) = (target, &new) {
            let ty = &model.var(*v).ty;
            if let Some((lo, hi)) = ty
                .int_range()
                .filter(|_| matches!(f.type_of(*x), Type::Int))
            {
                assumed.push(f.and(f.le(f.int(lo), *x), f.le(*x, f.int(hi))));
            }
        }
        changes.push(Change {
            variable: match *target {
                WriteTarget::Var(v) => model.var(v).name.clone(),
                WriteTarget::PointeeOf(p) => format!("*{}", model.var(p).name),
            },
            value: show_value(f, &new),
        });
        if let Some(slot) = env.get_mut(root) {
            *slot = new;
        }
    }
    Ok(assumed)
}

/// A value of the same shape as `old` whose data are fresh symbolic constants:
/// it stands for every value the object may hold at the loop head. An
/// uninitialised object stays uninitialised (reading it is then reported,
/// which covers both "still uninitialised" and "written"); the error names
/// what cannot be over-approximated this way.
fn fresh_like(
    f: &ExprFactory,
    old: &Value,
    fresh: &mut dyn FnMut(&ExprFactory, Type) -> Expr,
) -> Result<Value, &'static str> {
    Ok(match old {
        Value::Undefined => Value::Undefined,
        Value::Data(e) => {
            if !is_fully_defined(f, *e) {
                return Err(
                    "holds uninitialised elements on entry (initialise it before the loop)",
                );
            }
            Value::Data(fresh(f, f.type_of(*e)))
        }
        Value::Struct(fields) => Value::Struct(std::sync::Arc::new(
            fields
                .iter()
                .map(|v| fresh_like(f, v, fresh))
                .collect::<Result<_, _>>()?,
        )),
        Value::Array(elems) => Value::Array(std::sync::Arc::new(
            elems
                .iter()
                .map(|v| fresh_like(f, v, fresh))
                .collect::<Result<_, _>>()?,
        )),
        Value::Pointer(_) => return Err("holds a pointer"),
        Value::Handle(_) => return Err("holds an MPI handle"),
    })
}

/// The most elements of an array checked one by one for initialisation; a
/// larger array with an uninitialised base is refused.
const MAX_ELEMENTS_CHECKED: usize = 1 << 16;

/// True if no part of the data `e` can be uninitialised. An array whose base
/// was never written (`__tass_undef`) counts as initialised when every index
/// of its (concrete) extent is written with initialised data, e.g. by stores
/// `a[0] = 0; a[1] = 0; ...` before the loop. Anything that cannot be decided
/// element by element falls back to "mentions no undefined data" (refused
/// otherwise, which is sound: the object then gets no fresh values).
fn is_fully_defined(f: &ExprFactory, e: Expr) -> bool {
    if !mentions_undefined(f, e) {
        return true;
    }
    let Type::Array(_, Some(extent)) = f.type_of(e) else {
        return false;
    };
    let Some(n) = f
        .as_concrete_int(extent)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n <= MAX_ELEMENTS_CHECKED)
    else {
        return false;
    };
    (0..n).all(|k| element_is_defined(f, e, k) == Some(true))
}

/// Whether element `k` of the array `e` is initialised: `Some(false)` when it
/// is certainly the never-written base's, `None` when that depends on the
/// path (a write at a symbolic index, a conditional array).
fn element_is_defined(f: &ExprFactory, mut e: Expr, k: usize) -> Option<bool> {
    loop {
        match f.view(e) {
            ExprView::ConcreteArray { base, elements } => match elements.get(k) {
                Some(Some(v)) => return Some(is_fully_defined(f, *v)),
                _ => e = base,
            },
            ExprView::ArrayWrite(a, i, v) => {
                match f.as_concrete_int(i).and_then(|i| usize::try_from(i).ok()) {
                    Some(i) if i == k => return Some(is_fully_defined(f, v)),
                    Some(_) => e = a,
                    // k may or may not be the index written: both must be initialised
                    None => {
                        let both =
                            is_fully_defined(f, v) && element_is_defined(f, a, k) == Some(true);
                        return both.then_some(true);
                    }
                }
            }
            ExprView::Symbol(name) if &*name == UNDEFINED_SYMBOL => return Some(false),
            _ => return (!mentions_undefined(f, e)).then_some(true),
        }
    }
}

fn mentions_undefined(f: &ExprFactory, e: Expr) -> bool {
    f.free_symbols(e)
        .into_iter()
        .any(|s| f.symbol_name(s).is_some_and(|n| &*n == UNDEFINED_SYMBOL))
}

/// The prefix of the fresh constants a loop's entry gives its write set
/// (internal: left out of witnesses).
pub const LOOP_SYMBOL_PREFIX: &str = "__tass_loop";

/// True if one of `exprs` mentions a value made up at the entry of an
/// invariant loop. A counterexample over such values need not be a real
/// execution (the invariant may be weaker than what the program keeps), so a
/// violation found under it is only possible, never provable.
pub fn leans_on_loop_values(f: &ExprFactory, exprs: &[Expr]) -> bool {
    exprs.iter().any(|&e| {
        f.free_symbols(e).into_iter().any(|s| {
            f.symbol_name(s)
                .is_some_and(|n| n.starts_with(LOOP_SYMBOL_PREFIX))
        })
    })
}
