//! The executor: a transition (guard + statement) applied to an environment.

use smallvec::SmallVec;
use tass_dynamic::api::{undefined_data, ElemType, HeapObject, Pointer, Root, Step, Value};
use tass_model::api::{
    render_expr, AssertOrigin, Callee, ExprKind, LibraryFunction, Model, Span, Statement,
    TransitionId, Type as MType,
};
use tass_symbolic::api::{BigInt, Expr, ExprFactory, Type};

use crate::env::Environment;
use crate::eval::{is_data_type, scalar_type, Evaluator, Place, RAND_MAX};
use crate::oracle::Oracle;
use crate::report::{EngineError, Property, Violation};

/// A variable a step changed, for traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The lvalue as written in the source (`a[i]`, `*p`, `x`).
    pub variable: String,
    /// Its new value, pretty-printed (symbolic constants by their input names).
    pub value: String,
}

/// What executing one transition produced besides the new state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepResult {
    /// Violations found (including `assumption-vacuous` warnings).
    pub violations: Vec<Violation>,
    /// Variables changed.
    pub changes: Vec<Change>,
}

/// Executes transition `tid` of the executing process's current function: checks
/// its guard's operations (always) and conjoins the guard (unless `guard_known_true`), executes its statement,
/// moves control, and conjoins to the path condition whatever failed checks
/// assumed. With `record_changes` the changed variables are listed for traces
/// (pretty-printing costs time; searches may leave it off and replay a
/// counterexample with it on).
///
/// The caller has established that the guard is satisfiable under the path
/// condition (the transition is enabled).
pub fn execute_transition(
    model: &Model,
    f: &ExprFactory,
    oracle: &mut Oracle,
    env: &mut dyn Environment,
    tid: TransitionId,
    guard_known_true: bool,
    record_changes: bool,
) -> Result<StepResult, EngineError> {
    let (fid, _) = env.location();
    let function = model.function(fid);
    let body = function.body.as_ref().ok_or_else(|| {
        EngineError::invalid(
            format!("function `{}` has no body", function.name),
            Some(&function.span),
        )
    })?;
    let transition = body.transition(tid);
    let (_, target) = body.graph.edge_endpoints(tid).ok_or_else(|| {
        EngineError::invalid(
            "transition not in the current function",
            Some(&transition.span),
        )
    })?;
    let process = env.process();
    let mut ev = Evaluator::new(f, oracle, process, true);
    let mut changes = ChangeLog {
        enabled: record_changes,
        items: Vec::new(),
    };
    if !transition.guard.is_true() {
        // The guard is evaluated with its checks even when the path condition
        // already implies it: `if (2 / x != 7)` divides by zero at x = 0 whether or
        // not the other branch is feasible (a guard known true skipped its checks,
        // and such a division was reported to hold).
        let g = ev.eval_bool(&*env, &transition.guard)?;
        if !guard_known_true {
            ev.assumed.push(g);
        }
    }
    let span = &transition.span;
    let mut moved = false;
    match &transition.statement {
        Statement::Noop => {}
        Statement::Declare { var } => {
            let ty = &model.var(*var).ty;
            let v = ev.undefined_value(&*env, ty, span)?;
            let root = env.root_of(*var);
            if let Some(slot) = env.get_mut(root) {
                *slot = v;
            }
        }
        Statement::Assign { lhs, rhs } => {
            let v = ev.eval(&*env, rhs)?;
            let v = ev.convert(v, &rhs.ty, &lhs.ty, span)?;
            let place = ev.eval_place(&*env, lhs, false)?;
            changes.record(|| change(model, f, lhs, &v));
            ev.write_place(env, &place, v, span)?;
        }
        Statement::Assert { condition, origin } => {
            let c = ev.eval_bool(&*env, condition)?;
            let text = render_expr(model, condition);
            let pragma = matches!(origin, AssertOrigin::Pragma);
            ev.check(
                &*env,
                c,
                Property::Assertion,
                || {
                    if pragma {
                        format!("#pragma TASS assert {text} can fail")
                    } else {
                        format!("assert({text}) can fail")
                    }
                },
                span,
            );
        }
        Statement::Assume { condition } => {
            let c = ev.eval_bool(&*env, condition)?;
            ev.assumed.push(c);
            let pc = ev.current_pc(&*env);
            if ev.oracle().is_unsat(f, pc) {
                ev.violations.push(Violation {
                    property: Property::AssumptionVacuous,
                    certainty: crate::report::Certainty::Provable,
                    message: format!(
                        "the assumption `{}` is never true on this path",
                        render_expr(model, condition)
                    ),
                    span: span.clone(),
                    process,
                    witness: None,
                    claim: f.pretty(c),
                });
                // The path stands for no execution: end it.
                ev.assumed.push(f.ff());
            }
        }
        Statement::Call { lhs, callee, args } => match callee {
            Callee::User(g) => {
                let callee_fn = model.function(*g);
                if callee_fn.body.is_none() {
                    return Err(EngineError::unsupported(
                        format!("call of `{}`, which has no body", callee_fn.name),
                        span,
                    ));
                }
                let mut locals =
                    Vec::with_capacity(callee_fn.params.len() + callee_fn.locals.len());
                for (p, a) in callee_fn.params.iter().zip(args) {
                    let v = ev.eval(&*env, a)?;
                    let v = ev.convert(v, &a.ty, &model.var(*p).ty, span)?;
                    locals.push((*p, v));
                }
                if callee_fn.params.len() != args.len() {
                    return Err(EngineError::invalid(
                        format!(
                            "`{}` called with {} arguments, declared with {}",
                            callee_fn.name,
                            args.len(),
                            callee_fn.params.len()
                        ),
                        Some(span),
                    ));
                }
                for l in &callee_fn.locals {
                    let ty = &model.var(*l).ty;
                    let v = if literal_extents(ty) {
                        ev.undefined_value(&*env, ty, span)?
                    } else {
                        Value::Undefined
                    };
                    locals.push((*l, v));
                }
                for (p, v) in locals.iter().take(callee_fn.params.len()) {
                    changes.record(|| Change {
                        variable: format!("{}.{}", callee_fn.name, model.var(*p).name),
                        value: show_value(f, v),
                    });
                }
                env.set_location(target);
                env.push_frame(*g, Some(tid), locals);
                moved = true;
            }
            Callee::Library(lf) => {
                moved = library_call(
                    model,
                    &mut ev,
                    env,
                    *lf,
                    lhs.as_ref(),
                    args,
                    span,
                    &mut changes,
                    target,
                )?;
            }
            Callee::System(g) => {
                return Err(EngineError::unsupported(
                    format!(
                        "call of the system function `{}` (no built-in model)",
                        model.function(*g).name
                    ),
                    span,
                ))
            }
        },
        Statement::Return { value } => {
            let v = match value {
                Some(e) => Some((ev.eval(&*env, e)?, e.ty.clone())),
                None => None,
            };
            let depth = env.stack_depth();
            moved = true;
            if depth <= 1 {
                let code = v.as_ref().and_then(|(v, _)| v.as_data());
                env.set_location(target);
                env.terminate(code);
            } else if let (Some(cs), Some((v, vty))) = (env.pop_frame(), v) {
                let (cf, _) = env.location();
                let caller = model.function(cf);
                if let Some(cbody) = caller.body.as_ref() {
                    if let Statement::Call { lhs: Some(lhs), .. } = &cbody.transition(cs).statement
                    {
                        let v = ev.convert(v, &vty, &lhs.ty, span)?;
                        let place = ev.eval_place(&*env, lhs, false)?;
                        changes.record(|| change(model, f, lhs, &v));
                        ev.write_place(env, &place, v, span)?;
                    }
                }
            }
        }
        Statement::Allocate {
            lhs,
            elem_type,
            count,
            zeroed,
        } => {
            let n = ev.eval_int(&*env, count)?;
            let claim = f.le(f.int(0), n);
            let ns = f.pretty(n);
            ev.check(
                &*env,
                claim,
                Property::OutOfBounds,
                || format!("allocation of a negative number of elements ({ns})"),
                span,
            );
            let value = block_value(&mut ev, &*env, elem_type, n, *zeroed, span)?;
            let root = env.allocate(value, n, ElemType::of(elem_type));
            let p = Value::Pointer(Pointer::to(root, [Step::Index(f.int(0))]));
            let place = ev.eval_place(&*env, lhs, false)?;
            changes.record(|| Change {
                variable: render_expr(model, lhs),
                value: format!("&heap[{}][0] ({} elements)", heap_index(root), ns),
            });
            ev.write_place(env, &place, p, span)?;
        }
        Statement::Reallocate {
            lhs,
            pointer,
            elem_type,
            count,
        } => {
            let old = ev.eval(&*env, pointer)?;
            let n = ev.eval_int(&*env, count)?;
            let mut value = block_value(&mut ev, &*env, elem_type, n, false, span)?;
            if let Some(object) = heap_block(&mut ev, &*env, &old, "realloc", span) {
                if let Some(HeapObject::Live {
                    value: oldv,
                    extent,
                    ..
                }) = env.heap_object(process, object).cloned()
                {
                    value = copy_prefix(f, &value, &oldv, extent, n, span)?;
                }
                env.free(object);
            }
            let root = env.allocate(value, n, ElemType::of(elem_type));
            let p = Value::Pointer(Pointer::to(root, [Step::Index(f.int(0))]));
            let place = ev.eval_place(&*env, lhs, false)?;
            changes.record(|| Change {
                variable: render_expr(model, lhs),
                value: format!("&heap[{}][0]", heap_index(root)),
            });
            ev.write_place(env, &place, p, span)?;
        }
        Statement::Free { pointer } => {
            let p = ev.eval(&*env, pointer)?;
            if let Some(object) = heap_block(&mut ev, &*env, &p, "free", span) {
                env.free(object);
            }
        }
        Statement::CollectiveAssert { kind, .. } => {
            return Err(EngineError::unsupported(
                format!("#pragma TASS {} assert (not yet supported)", kind.keyword()),
                span,
            ))
        }
        Statement::LoopInvariant(inv) => {
            return Err(EngineError::unsupported(
                format!(
                    "#pragma TASS {} invariant (not yet supported)",
                    inv.kind.keyword()
                ),
                span,
            ))
        }
    }
    if !moved {
        env.set_location(target);
    }
    let pc = ev.current_pc(&*env);
    env.set_path_condition(pc);
    Ok(StepResult {
        violations: ev.violations,
        changes: changes.items,
    })
}

/// The changes of a step, recorded only when traces are wanted.
struct ChangeLog {
    enabled: bool,
    items: Vec<Change>,
}

impl ChangeLog {
    fn record(&mut self, make: impl FnOnce() -> Change) {
        if self.enabled {
            self.items.push(make());
        }
    }
}

fn heap_index(root: Root) -> u32 {
    match root {
        Root::Heap { object, .. } => object,
        _ => 0,
    }
}

fn change(model: &Model, f: &ExprFactory, lhs: &tass_model::api::Expr, v: &Value) -> Change {
    Change {
        variable: render_expr(model, lhs),
        value: show_value(f, v),
    }
}

/// A value pretty-printed for traces.
pub fn show_value(f: &ExprFactory, v: &Value) -> String {
    match v {
        Value::Undefined => "undefined".into(),
        Value::Data(e) => f.pretty(*e),
        Value::Pointer(Pointer::Null) => "NULL".into(),
        Value::Pointer(Pointer::Bytes { root, offset }) => {
            let base = match root {
                Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                    format!("var{}", v.0)
                }
                Root::Heap { object, .. } => format!("heap[{object}]"),
            };
            format!("(char *)&{base} + {}", f.pretty(*offset))
        }
        Value::Pointer(Pointer::To { root, path }) => {
            let mut s = match root {
                Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                    format!("&var{}", v.0)
                }
                Root::Heap { object, .. } => format!("&heap[{object}]"),
            };
            for st in path {
                match st {
                    Step::Index(i) => s.push_str(&format!("[{}]", f.pretty(*i))),
                    Step::Field(k) => s.push_str(&format!(".{k}")),
                }
            }
            s
        }
        Value::Struct(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|x| show_value(f, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Array(els) => format!(
            "[{}]",
            els.iter()
                .map(|x| show_value(f, x))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Handle(h) => format!("{h:?}"),
    }
}

fn literal_extents(ty: &MType) -> bool {
    match ty {
        MType::Array(e, Some(x)) => matches!(x.kind, ExprKind::IntLit(_)) && literal_extents(e),
        MType::Array(_, None) => false,
        _ => true,
    }
}

/// The array value of a new heap block of `n` elements of `elem`.
fn block_value(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    elem: &MType,
    n: Expr,
    zeroed: bool,
    span: &Span,
) -> Result<Value, EngineError> {
    let f = ev.factory();
    if is_data_type(elem) {
        let et = ev.data_type(env, elem, span)?.unwrap_or(Type::Int);
        let ty = Type::array(et, Some(n));
        Ok(Value::Data(if zeroed {
            f.default_value(&ty)
        } else {
            undefined_data(f, ty)
        }))
    } else {
        let k = f
            .as_concrete_int(n)
            .and_then(|k| usize::try_from(k).ok())
            .ok_or_else(|| {
                EngineError::unsupported(
                    "allocation of pointers or structs with a symbolic count",
                    span,
                )
            })?;
        let one = if zeroed {
            ev.zero_value(env, elem, span)?
        } else {
            ev.undefined_value(env, elem, span)?
        };
        Ok(Value::Array(std::sync::Arc::new(vec![one; k])))
    }
}

/// New block `new` (extent `n`) with its prefix copied from `old` (extent `m`).
fn copy_prefix(
    f: &ExprFactory,
    new: &Value,
    old: &Value,
    m: Expr,
    n: Expr,
    span: &Span,
) -> Result<Value, EngineError> {
    match (new, old) {
        (Value::Data(a), Value::Data(b)) => {
            let ty = f.type_of(*a);
            let i = f.symbol("__tass_i", Type::Int);
            let from_old = f.array_read(*b, i);
            let fresh = f.array_read(*a, i);
            let body = f.ite(f.lt(i, m), from_old, fresh);
            let _ = n;
            Ok(Value::Data(f.array_lambda(ty, i, body)))
        }
        (Value::Array(a), Value::Array(b)) => {
            let mut v = (**a).clone();
            for (k, x) in b.iter().enumerate().take(v.len()) {
                v[k] = x.clone();
            }
            Ok(Value::Array(std::sync::Arc::new(v)))
        }
        _ => Err(EngineError::unsupported(
            "realloc changing the element kind",
            span,
        )),
    }
}

/// The heap object `p` is the start of, for `free`/`realloc`; reports an invalid
/// pointer otherwise. `None` for null (nothing to do) or after a violation.
fn heap_block(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    p: &Value,
    what: &str,
    span: &Span,
) -> Option<u32> {
    let f = ev.factory();
    // A byte view of a block is its start when its byte offset is 0: checked
    // like an element index below.
    let as_path;
    let p = match p {
        Value::Pointer(Pointer::Bytes { root, offset }) => {
            as_path = Value::Pointer(Pointer::to(*root, [Step::Index(*offset)]));
            &as_path
        }
        other => other,
    };
    match p {
        Value::Pointer(Pointer::Null) => None,
        Value::Pointer(Pointer::To {
            root: Root::Heap { proc, object },
            path,
        }) if *proc as usize == env.process() => {
            match env.heap_object(*proc as usize, *object) {
                Some(HeapObject::Live { .. }) => {}
                Some(HeapObject::Freed) => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of memory that was already freed"),
                        span,
                    );
                    return None;
                }
                None => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of a dangling pointer"),
                        span,
                    );
                    return None;
                }
            }
            match path.as_slice() {
                [Step::Index(i)] => {
                    let claim = f.eq(*i, f.int(0));
                    let i = *i;
                    ev.check(
                        env,
                        claim,
                        Property::InvalidPointer,
                        || {
                            let is = f.pretty(i);
                            format!("{what} of a pointer into the middle of a block (offset {is})")
                        },
                        span,
                    );
                    Some(*object)
                }
                _ => {
                    ev.fail(
                        env,
                        Property::InvalidPointer,
                        format!("{what} of a pointer that is not the start of a block"),
                        span,
                    );
                    None
                }
            }
        }
        Value::Undefined => {
            ev.fail(
                env,
                Property::InvalidPointer,
                format!("{what} of an uninitialised pointer"),
                span,
            );
            None
        }
        _ => {
            ev.fail(
                env,
                Property::InvalidPointer,
                format!("{what} of a pointer not obtained from malloc"),
                span,
            );
            None
        }
    }
}

/// Strips pointer casts to find the pointee type of a `void *` argument (also
/// used for MPI buffer arguments).
pub fn pointee_type(e: &tass_model::api::Expr) -> Option<MType> {
    let mut e = e;
    loop {
        if let ExprKind::Cast(inner) = &e.kind {
            if matches!(inner.ty, MType::Pointer(_)) {
                e = inner;
                continue;
            }
        }
        return match &e.ty {
            MType::Pointer(t) if **t != MType::Void => Some((**t).clone()),
            _ => None,
        };
    }
}

#[allow(clippy::too_many_arguments)]
fn library_call(
    model: &Model,
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    lf: LibraryFunction,
    lhs: Option<&tass_model::api::Expr>,
    args: &[tass_model::api::Expr],
    span: &Span,
    changes: &mut ChangeLog,
    target: tass_model::api::LocationId,
) -> Result<bool, EngineError> {
    use LibraryFunction::*;
    let f = ev.factory();
    let mut result: Option<Value> = None;
    let arg = |k: usize| -> Result<&tass_model::api::Expr, EngineError> {
        args.get(k).ok_or_else(|| {
            EngineError::invalid(format!("{} needs more arguments", lf.c_name()), Some(span))
        })
    };
    match lf {
        Exit | Abort => {
            let code = if lf == Exit {
                Some(ev.eval_int(&*env, arg(0)?)?)
            } else {
                // A program that aborts has failed, as if an assertion had.
                ev.fail_claiming(
                    &*env,
                    Property::Assertion,
                    "abort() is called: the program aborts".into(),
                    "abort() is not called",
                    span,
                );
                None
            };
            env.set_location(target);
            env.terminate(code);
            return Ok(true);
        }
        Abs | Labs | Sqrt | Fabs | Pow | Exp | Log | Sin | Cos | Floor | Ceil | Fmin | Fmax => {
            let e = tass_model::api::Expr::new(
                ExprKind::MathCall(lf, args.to_vec()),
                lhs.map(|l| l.ty.clone()).unwrap_or(MType::DOUBLE),
                span.clone(),
            );
            result = Some(ev.eval(&*env, &e)?);
        }
        Rand => {
            let r = f.fresh_symbol("rand", Type::Int);
            ev.assumed
                .push(f.and(f.le(f.int(0), r), f.le(r, f.int(RAND_MAX))));
            result = Some(Value::Data(r));
        }
        Srand | Printf | Fprintf | Puts | Putchar | Fflush => {
            for a in args {
                ev.eval(&*env, a)?;
            }
            if lf == Printf || lf == Puts || lf == Putchar {
                result = Some(Value::Data(f.fresh_symbol("__tass_printed", Type::Int)));
                result = result.map(|_| Value::Data(f.int(0)));
            }
        }
        Memcpy | Memset => {
            let dst = ev.eval(&*env, arg(0)?)?;
            let bytes = ev.eval_int(&*env, arg(2)?)?;
            let elem = pointee_type(arg(0)?)
                .or_else(|| pointee_type(arg(1).ok()?))
                .ok_or_else(|| {
                    EngineError::unsupported(
                        format!("{} on untyped (void *) memory", lf.c_name()),
                        span,
                    )
                })?;
            let size = tass_dynamic::api::size_of(model, &elem).ok_or_else(|| {
                EngineError::unsupported(
                    format!("{} of elements without a constant size", lf.c_name()),
                    span,
                )
            })?;
            let count = f.int_div(bytes, f.int(size));
            let dplace = ev.deref_place(&*env, dst.clone(), true, span, &|| {
                render_expr(model, &args[0])
            })?;
            let src = if lf == Memcpy {
                let s = ev.eval(&*env, arg(1)?)?;
                Some(ev.deref_place(&*env, s, true, span, &|| render_expr(model, &args[1]))?)
            } else {
                let c = ev.eval_int(&*env, arg(1)?)?;
                if f.as_concrete_int(c) != Some(BigInt::from(0)) {
                    return Err(EngineError::unsupported(
                        "memset with a non-zero byte",
                        span,
                    ));
                }
                None
            };
            block_copy(ev, env, &elem, dplace, src, count, span)?;
            result = Some(dst);
        }
        Strlen => {
            let s = ev.eval(&*env, arg(0)?)?;
            let place = ev.deref_place(&*env, s, false, span, &|| render_expr(model, &args[0]))?;
            let (root, mut path) = place;
            let Some(Step::Index(start)) = path.pop() else {
                return Err(EngineError::unsupported(
                    "strlen of a pointer that is not into an array",
                    span,
                ));
            };
            let start = f
                .as_concrete_int(start)
                .ok_or_else(|| EngineError::unsupported("strlen at a symbolic offset", span))?;
            let ext = ev
                .extent_at(&*env, root, &path)
                .and_then(|e| f.as_concrete_int(e));
            let mut k = start.clone();
            loop {
                if ext.as_ref().is_some_and(|x| &k >= x) {
                    ev.fail(
                        &*env,
                        Property::OutOfBounds,
                        "strlen reads past the end of its string (no terminating NUL)".into(),
                        span,
                    );
                    break;
                }
                let mut p = path.clone();
                p.push(Step::Index(f.int(k.clone())));
                let c = ev.read_place(&*env, &(root, p)).as_data().ok_or_else(|| {
                    EngineError::unsupported("strlen of non-character data", span)
                })?;
                match f
                    .as_concrete_char(c)
                    .map(|c| c as i64)
                    .or_else(|| f.as_concrete_int(c).and_then(|x| i64::try_from(x).ok()))
                {
                    Some(0) => break,
                    Some(_) => k += 1,
                    None => {
                        return Err(EngineError::unsupported(
                            "strlen of a string with symbolic characters",
                            span,
                        ))
                    }
                }
            }
            result = Some(Value::Data(f.int(k - start)));
        }
        Assert => {
            let c = ev.eval_bool(&*env, arg(0)?)?;
            let text = render_expr(model, arg(0)?);
            ev.check(
                &*env,
                c,
                Property::Assertion,
                || format!("assert({text}) can fail"),
                span,
            );
        }
        Atoi | Sprintf => {
            return Err(EngineError::unsupported(
                format!("the library function {}", lf.c_name()),
                span,
            ));
        }
        Malloc | Calloc | Realloc | Free => {
            return Err(EngineError::unsupported(
                format!("{} whose element type could not be determined", lf.c_name()),
                span,
            ));
        }
        other if other.is_mpi() => {
            return Err(EngineError::unsupported(
                format!(
                    "{} (MPI is not supported by the engine yet)",
                    other.c_name()
                ),
                span,
            ));
        }
        other => {
            return Err(EngineError::unsupported(
                format!("the library function {}", other.c_name()),
                span,
            ));
        }
    }
    if let (Some(lhs), Some(v)) = (lhs, result) {
        let v = match (&v, scalar_type(&lhs.ty)) {
            (Value::Data(x), Some(t)) if f.type_of(*x) != t => Value::Data(f.cast(*x, &t)),
            _ => v,
        };
        let place = ev.eval_place(&*env, lhs, false)?;
        changes.record(|| change(model, f, lhs, &v));
        ev.write_place(env, &place, v, span)?;
    }
    Ok(false)
}

/// `memcpy`/`memset(.., 0, ..)` of `count` elements of type `elem` from `src` (or
/// zeros) to `dst`, with bounds checks on both blocks.
fn block_copy(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    elem: &MType,
    dst: Place,
    src: Option<Place>,
    count: Expr,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let split = |p: &Place| -> Option<(Root, SmallVec<[Step; 2]>, Expr)> {
        let mut path = p.1.clone();
        match path.pop() {
            Some(Step::Index(i)) => Some((p.0, path, i)),
            _ => None,
        }
    };
    let dparts = split(&dst);
    let sparts = src.as_ref().map(split);
    // Bounds: start + count <= extent for both blocks.
    for (parts, which) in [
        (dparts.clone(), "destination"),
        (sparts.clone().flatten(), "source"),
    ] {
        if let Some((root, prefix, start)) = parts {
            if let Some(ext) = ev.extent_at(&*env, root, &prefix) {
                let end = f.add(start, count);
                let claim = f.and(f.le(f.int(0), count), f.le(end, ext));
                ev.check(
                    &*env,
                    claim,
                    Property::OutOfBounds,
                    || {
                        let (es, xs) = (f.pretty(end), f.pretty(ext));
                        format!("{which} of the copy overflows its block: end {es}, extent {xs}")
                    },
                    span,
                );
            }
        }
    }
    let zero = ev.zero_value(&*env, elem, span)?;
    if let Some(k) = f
        .as_concrete_int(count)
        .and_then(|k| usize::try_from(k).ok())
    {
        let (Some((droot, dprefix, dstart)), true) =
            (dparts.clone(), sparts.as_ref().is_none_or(|s| s.is_some()))
        else {
            return Err(EngineError::unsupported(
                "memcpy/memset on a pointer that is not into an array",
                span,
            ));
        };
        for j in 0..k {
            let v = match &sparts {
                Some(Some((sroot, sprefix, sstart))) => {
                    let mut p = sprefix.clone();
                    p.push(Step::Index(f.add(*sstart, f.int(j))));
                    ev.read_place(&*env, &(*sroot, p))
                }
                _ => zero.clone(),
            };
            let mut p = dprefix.clone();
            p.push(Step::Index(f.add(dstart, f.int(j))));
            ev.write_place(env, &(droot, p), v, span)?;
        }
        return Ok(());
    }
    // Symbolic count: only whole-array copies of data from index 0.
    let Some((droot, dprefix, dstart)) = dparts else {
        return Err(EngineError::unsupported(
            "memcpy/memset on a pointer that is not into an array",
            span,
        ));
    };
    let dext = ev.extent_at(&*env, droot, &dprefix);
    if f.as_concrete_int(dstart) != Some(BigInt::from(0)) || dext != Some(count) {
        return Err(EngineError::unsupported(
            "memcpy/memset of a symbolic number of elements that is not a whole array",
            span,
        ));
    }
    let new = match sparts {
        Some(Some((sroot, sprefix, sstart))) => {
            if f.as_concrete_int(sstart) != Some(BigInt::from(0)) {
                return Err(EngineError::unsupported(
                    "memcpy from the middle of an array with a symbolic count",
                    span,
                ));
            }
            let src_whole = ev.read_place(&*env, &(sroot, sprefix));
            match (src_whole, ev.read_place(&*env, &(droot, dprefix.clone()))) {
                (Value::Data(s), Value::Data(d)) => {
                    let i = f.symbol("__tass_i", Type::Int);
                    let body = f.array_read(s, i);
                    Value::Data(f.array_lambda(f.type_of(d), i, body))
                }
                _ => {
                    return Err(EngineError::unsupported(
                        "memcpy of non-data arrays with a symbolic count",
                        span,
                    ))
                }
            }
        }
        Some(None) => {
            return Err(EngineError::unsupported(
                "memcpy from a pointer that is not into an array",
                span,
            ))
        }
        None => match ev.read_place(&*env, &(droot, dprefix.clone())) {
            Value::Data(d) => Value::Data(f.default_value(&f.type_of(d))),
            _ => {
                return Err(EngineError::unsupported(
                    "memset of non-data arrays with a symbolic count",
                    span,
                ))
            }
        },
    };
    ev.write_place(env, &(droot, dprefix), new, span)
}

/// The value of transition `tid`'s guard for the executing process, evaluated
/// without checks (checks happen when the transition executes).
pub fn evaluate_guard(
    model: &Model,
    f: &ExprFactory,
    oracle: &mut Oracle,
    env: &dyn Environment,
    tid: TransitionId,
) -> Result<Expr, EngineError> {
    let (fid, _) = env.location();
    let function = model.function(fid);
    let body = function.body.as_ref().ok_or_else(|| {
        EngineError::invalid(
            format!("function `{}` has no body", function.name),
            Some(&function.span),
        )
    })?;
    let guard = &body.transition(tid).guard;
    if guard.is_true() {
        return Ok(f.tt());
    }
    let mut ev = Evaluator::new(f, oracle, env.process(), false);
    ev.eval_bool(env, guard)
}
